#include "main_window.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "compare_view.hpp"
#include "run_list_model.hpp"
#include "speedup_view.hpp"
#include "timeline_view.hpp"
#include "view_export.hpp"
#include "whatif_panel.hpp"

namespace dtsim::gui {

MainWindow::MainWindow(const QString& dtsim_executable, QWidget* parent)
    : QMainWindow(parent), m_runs(new RunListModel(this)), m_proxy(new QSortFilterProxyModel(this)), m_filter(new QLineEdit),
      m_table(new QTableView), m_tabs(new QTabWidget), m_timeline(new TimelineView), m_compare(new CompareView),
      m_speedup(new SpeedupView), m_whatif(new WhatIfPanel(dtsim_executable)) {
    setWindowTitle(tr("dtsim"));
    m_proxy->setSourceModel(m_runs);
    m_proxy->setSortRole(RunListModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setPlaceholderText(tr("Filter runs (scenario, kind, strategy, …)"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RunListModel::Id, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::onSelectionChanged);

    auto* browser = new QWidget;
    auto* browser_layout = new QVBoxLayout(browser);
    browser_layout->setContentsMargins(0, 0, 0, 0);
    browser_layout->addWidget(m_filter);
    browser_layout->addWidget(m_table);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(m_speedup, tr("Speedup"));
    m_tabs->addTab(m_whatif, tr("What-if"));
    auto* splitter = new QSplitter;
    splitter->addWidget(browser);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({420, 1180});
    setCentralWidget(splitter);
    connect(m_whatif, &WhatIfPanel::finished, this, &MainWindow::onWhatIfFinished);
    buildMenus();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open runs database…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Runs database"), {}, tr("Runs databases (*.db *.sqlite);;All files (*)"));
        if (!path.isEmpty()) openDatabase(path);
    });
    file->addAction(tr("Export view as &PNG…"), this, [this] { exportView(QStringLiteral("png")); });
    file->addAction(tr("Export view as &SVG…"), this, [this] { exportView(QStringLiteral("svg")); });
    file->addAction(tr("Export run as Chrome &trace…"), this, [this] { exportTrace(); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
}

void MainWindow::showError(const QString& text) {
    m_last_error = text;
    statusBar()->showMessage(text);
    if (!m_error_dialog) m_error_dialog = new QMessageBox(QMessageBox::Critical, tr("dtsim"), {}, QMessageBox::Ok, this);
    m_error_dialog->setText(text);
    m_error_dialog->open();  // not exec(): the window stays usable and tests need no event loop
}

bool MainWindow::openDatabase(const QString& path) {
    try {
        m_db = std::make_unique<RunDatabase>(path.toStdString());
    } catch (const std::exception& e) {
        showError(tr("Cannot open the runs database:\n%1").arg(QString::fromStdString(e.what())));
        return false;
    }
    m_whatif->setDatabase(path);
    setWindowTitle(tr("dtsim — %1").arg(path));
    reloadRuns();
    return true;
}

void MainWindow::reloadRuns() {
    try {
        m_runs->setRuns(m_db ? m_db->list() : std::vector<RunListEntry>{});
        m_table->resizeColumnsToContents();
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
    statusBar()->showMessage(tr("%1 runs").arg(m_runs->rowCount()));
}

std::vector<std::int64_t> MainWindow::selectedRunIds() const {
    std::vector<std::pair<int, std::int64_t>> rows;  // in browser order
    for (const auto& index : m_table->selectionModel()->selectedRows()) {
        const auto source = m_proxy->mapToSource(index);
        rows.emplace_back(index.row(), m_runs->runs()[static_cast<size_t>(source.row())].id);
    }
    std::sort(rows.begin(), rows.end());
    std::vector<std::int64_t> ids;
    for (const auto& [row, id] : rows) ids.push_back(id);
    return ids;
}

bool MainWindow::selectRuns(std::int64_t first, std::optional<std::int64_t> second) {
    const int a = m_runs->rowOfId(first);
    const int b = second ? m_runs->rowOfId(*second) : -1;
    if (a < 0 || (second && b < 0)) return false;
    auto* selection = m_table->selectionModel();
    selection->clearSelection();
    for (int row : {a, b}) {
        if (row < 0) continue;
        const auto index = m_proxy->mapFromSource(m_runs->index(row, 0));
        selection->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    return true;
}

void MainWindow::onSelectionChanged() {
    if (!m_db) return;
    const auto ids = selectedRunIds();
    try {
        if (ids.empty()) return;
        auto first = m_db->load(ids[0]);
        m_timeline->showRun(first);
        const auto entry = m_runs->runs()[static_cast<size_t>(m_runs->rowOfId(ids[0]))];
        m_speedup->showScenario(m_runs->runs(), entry);
        m_compare->showRuns(first, ids.size() > 1 ? m_db->load(ids[1]) : nullptr);
        m_previous_run = ids[0];
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void MainWindow::showView(ViewKind view) { m_tabs->setCurrentIndex(static_cast<int>(view)); }

void MainWindow::onWhatIfFinished(bool ok, const QString& message) {
    if (!ok) {
        statusBar()->showMessage(tr("What-if failed: %1").arg(message));
        return;
    }
    const std::int64_t previous = m_previous_run;
    reloadRuns();
    if (m_runs->runs().empty()) return;
    const std::int64_t newest = m_runs->runs().back().id;
    // The new run next to the one the user looked at before.
    if (previous > 0 && previous != newest && selectRuns(newest, previous)) showView(ViewKind::compare);
    else selectRuns(newest);
    statusBar()->showMessage(tr("What-if stored as run %1").arg(newest));
}

QImage MainWindow::screenshot(const QSize& size) {
    // The requested size wins over the widgets' minimum sizes (small images for docs and tests).
    layout()->setSizeConstraint(QLayout::SetNoConstraint);
    setMinimumSize(0, 0);
    resize(size);
    show();
    QApplication::processEvents();
    return grab().toImage();
}

void MainWindow::exportView(const QString& suffix) {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), QStringLiteral("dtsim-view.") + suffix,
                                                      suffix.toUpper() + QStringLiteral(" (*.") + suffix + QLatin1Char(')'));
    if (path.isEmpty()) return;
    if (const QString error = exportWidget(m_tabs->currentWidget(), path); !error.isEmpty()) showError(error);
}

void MainWindow::exportTrace() {
    const auto ids = selectedRunIds();
    if (!m_db || ids.empty()) return showError(tr("Select a run to export first."));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export run as Chrome trace"),
                                                      QStringLiteral("run-%1.trace.json").arg(ids[0]), tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    try {
        const auto run = m_db->loadFull(ids[0]);
        if (const QString error = run ? exportChromeTrace(*run, path) : tr("run %1 is gone").arg(ids[0]); !error.isEmpty())
            showError(error);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

}  // namespace dtsim::gui
