#include <QFile>
#include <QMessageBox>
#include <catch2/catch.hpp>
#include <fstream>

#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "main_window.hpp"
#include "run_list_model.hpp"

namespace open_errors_test {

using namespace dtsim;
using namespace dtsim::gui;

TEST_CASE("gui::MainWindow: a missing or corrupt database shows an error dialog and keeps the open one", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-errors");
    test::write_test_database(dir.file("runs.db"));
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.open_database(QString::fromStdString(dir.file("runs.db"))));
    REQUIRE(window.error_dialog() == nullptr);

    SECTION("missing") {
        const QString missing = QString::fromStdString(dir.file("nothing-here.db"));
        CHECK_FALSE(window.open_database(missing));
        REQUIRE(window.error_dialog());
        CHECK(window.error_dialog()->text().contains(missing + QStringLiteral(": no runs database here")));
        CHECK_FALSE(QFile::exists(missing));  // opening must not create it
    }
    SECTION("corrupt") {
        {
            std::ofstream garbage(dir.file("corrupt.db"), std::ios::binary);
            for (int i = 0; i < 400; ++i) garbage << "this is not an SQLite database ";
        }
        CHECK_FALSE(window.open_database(QString::fromStdString(dir.file("corrupt.db"))));
        REQUIRE(window.error_dialog());
        CHECK(window.error_dialog()->text().contains(QStringLiteral("not a dtsim runs database")));
    }
    CHECK(window.error_dialog()->icon() == QMessageBox::Critical);
    CHECK(window.run_list()->rowCount() == 5);  // the previous database stays open
}

}  // namespace open_errors_test
