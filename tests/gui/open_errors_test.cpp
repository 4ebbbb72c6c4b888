#include <QFile>
#include <QMessageBox>
#include <catch2/catch.hpp>
#include <fstream>

#include "dtsim/temporary_directory.hpp"
#include "gui_fixtures.hpp"
#include "main_window.hpp"
#include "run_list_model.hpp"

using namespace dtsim;
using namespace dtsim::gui;

TEST_CASE("gui::MainWindow: a missing or corrupt database shows an error dialog and keeps the open one", "[gui]") {
    TemporaryDirectory dir("dtsim-gui-errors");
    test::writeTestDatabase(dir.file("runs.db"));
    MainWindow window(QStringLiteral(DTSIM_EXECUTABLE));
    REQUIRE(window.openDatabase(QString::fromStdString(dir.file("runs.db"))));
    REQUIRE(window.errorDialog() == nullptr);

    SECTION("missing") {
        const QString missing = QString::fromStdString(dir.file("nothing-here.db"));
        CHECK_FALSE(window.openDatabase(missing));
        REQUIRE(window.errorDialog());
        CHECK(window.errorDialog()->text().contains(missing + QStringLiteral(": no runs database here")));
        CHECK_FALSE(QFile::exists(missing));  // opening must not create it
    }
    SECTION("corrupt") {
        {
            std::ofstream garbage(dir.file("corrupt.db"), std::ios::binary);
            for (int i = 0; i < 400; ++i) garbage << "this is not an SQLite database ";
        }
        CHECK_FALSE(window.openDatabase(QString::fromStdString(dir.file("corrupt.db"))));
        REQUIRE(window.errorDialog());
        CHECK(window.errorDialog()->text().contains(QStringLiteral("not a dtsim runs database")));
    }
    CHECK(window.errorDialog()->icon() == QMessageBox::Critical);
    CHECK(window.runList()->rowCount() == 5);  // the previous database stays open
}
