// The GUI tests' main: a QApplication on the offscreen platform (set before it exists, so that test
// discovery at build time works without a display), then Catch2 (tests/support/catch_session.cpp).
#include <QApplication>

#include "catch_run.hpp"

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    return run_catch_session(argc, argv);
}
