#include "main_window.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "advise_view.hpp"
#include "compare_view.hpp"
#include "run_list_model.hpp"
#include "speedup_view.hpp"
#include "timeline_view.hpp"
#include "view_export.hpp"
#include "whatif_panel.hpp"

namespace dtsim::gui {

MainWindow::MainWindow(const QString& dtsim_executable, QWidget* parent)
    : QMainWindow(parent), runs_(new RunListModel(this)), proxy_(new QSortFilterProxyModel(this)), filter_(new QLineEdit),
      table_(new QTableView), splitter_(new QSplitter), tabs_(new QTabWidget), timeline_(new TimelineView), compare_(new CompareView),
      speedup_(new SpeedupView), whatif_(new WhatIfPanel(dtsim_executable)), advise_(new AdviseView(dtsim_executable)) {
    setWindowTitle(tr("dtsim"));
    proxy_->setSourceModel(runs_);
    proxy_->setSortRole(RunListModel::kSortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setPlaceholderText(tr("Filter runs (scenario, kind, strategy, …)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    table_->setObjectName(QStringLiteral("run_browser"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunListModel::id, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setResizeContentsPrecision(-1);  // columns fit every row's text, not the first 1000's
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::on_selection_changed);

    auto* browser = new QWidget;
    auto* browser_layout = new QVBoxLayout(browser);
    browser_layout->setContentsMargins(0, 0, 0, 0);
    browser_layout->addWidget(filter_);
    browser_layout->addWidget(table_);
    tabs_->addTab(timeline_, tr("Timeline"));
    tabs_->addTab(compare_, tr("Compare"));
    tabs_->addTab(speedup_, tr("Speedup"));
    tabs_->addTab(whatif_, tr("What-if"));
    tabs_->addTab(advise_, tr("Advise"));
    splitter_->addWidget(browser);
    splitter_->addWidget(tabs_);
    splitter_->setStretchFactor(1, 3);
    splitter_->setSizes({420, 1180});
    setCentralWidget(splitter_);
    connect(whatif_, &WhatIfPanel::finished, this, &MainWindow::on_whatif_finished);
    connect(advise_, &AdviseView::finished, this, &MainWindow::on_advise_finished);
    connect(advise_, &AdviseView::run_chosen, this, &MainWindow::open_run);
    build_menus();
}

MainWindow::~MainWindow() = default;

void MainWindow::build_menus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open runs database…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Runs database"), {}, tr("Runs databases (*.db *.sqlite);;All files (*)"));
        if (!path.isEmpty()) open_database(path);
    });
    file->addAction(tr("Export view as &PNG…"), this, [this] { export_view(QStringLiteral("png")); });
    file->addAction(tr("Export view as &SVG…"), this, [this] { export_view(QStringLiteral("svg")); });
    file->addAction(tr("Export run as Chrome &trace…"), this, [this] { export_trace(); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
}

void MainWindow::show_error(const QString& text) {
    last_error_ = text;
    statusBar()->showMessage(text);
    if (!error_dialog_) error_dialog_ = new QMessageBox(QMessageBox::Critical, tr("dtsim"), {}, QMessageBox::Ok, this);
    error_dialog_->setText(text);
    error_dialog_->open();  // not exec(): the window stays usable and tests need no event loop
}

bool MainWindow::open_database(const QString& path) {
    try {
        db_ = std::make_unique<RunDatabase>(path.toStdString());
    } catch (const std::exception& e) {
        show_error(tr("Cannot open the runs database:\n%1").arg(QString::fromStdString(e.what())));
        return false;
    }
    whatif_->set_database(path);
    advise_->set_database(path);
    setWindowTitle(tr("dtsim — %1").arg(path));
    reload_runs();
    return true;
}

void MainWindow::reload_runs() {
    try {
        runs_->set_runs(db_ ? db_->list() : std::vector<RunListEntry>{});
        table_->resizeColumnsToContents();
        if (isVisible()) show_browser_columns_through(RunListModel::strategy);
    } catch (const std::exception& e) {
        show_error(QString::fromStdString(e.what()));
    }
    statusBar()->showMessage(tr("%1 runs").arg(runs_->rowCount()));
}

void MainWindow::show_browser_columns_through(int last_column) {
    // Wider, never narrower (the user may have widened it), and at most half the window.
    int needed = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column <= last_column; ++column) needed += table_->horizontalHeader()->sectionSize(column);
    auto sizes = splitter_->sizes();
    if (sizes.size() != 2 || sizes[0] >= needed) return;
    const int total = sizes[0] + sizes[1];
    sizes[0] = std::min(needed, total / 2);
    sizes[1] = total - sizes[0];
    splitter_->setSizes(sizes);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    show_browser_columns_through(RunListModel::strategy);  // the splitter has its width only now
}

std::vector<std::int64_t> MainWindow::selected_run_ids() const {
    std::vector<std::pair<int, std::int64_t>> rows;  // in browser order
    for (const auto& index : table_->selectionModel()->selectedRows()) {
        const auto source = proxy_->mapToSource(index);
        rows.emplace_back(index.row(), runs_->runs()[static_cast<size_t>(source.row())].id);
    }
    std::sort(rows.begin(), rows.end());
    std::vector<std::int64_t> ids;
    for (const auto& [row, id] : rows) ids.push_back(id);
    return ids;
}

bool MainWindow::select_runs(std::int64_t first, std::optional<std::int64_t> second) {
    const int a = runs_->row_of_id(first);
    const int b = second ? runs_->row_of_id(*second) : -1;
    if (a < 0 || (second && b < 0)) return false;
    auto* selection = table_->selectionModel();
    selection->clearSelection();
    for (int row : {a, b}) {
        if (row < 0) continue;
        const auto index = proxy_->mapFromSource(runs_->index(row, 0));
        selection->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    return true;
}

void MainWindow::on_selection_changed() {
    if (!db_) return;
    const auto ids = selected_run_ids();
    try {
        if (ids.empty()) return;
        auto first = db_->load(ids[0]);
        timeline_->show_run(first);
        const auto entry = runs_->runs()[static_cast<size_t>(runs_->row_of_id(ids[0]))];
        speedup_->show_scenario(runs_->runs(), entry);
        whatif_->start_from_run(entry);
        compare_->show_runs(first, ids.size() > 1 ? db_->load(ids[1]) : nullptr);
        previous_run_ = ids[0];
    } catch (const std::exception& e) {
        show_error(QString::fromStdString(e.what()));
    }
}

void MainWindow::show_view(ViewKind view) { tabs_->setCurrentIndex(static_cast<int>(view)); }

void MainWindow::on_whatif_finished(bool ok, const QString& message) {
    if (!ok) {
        statusBar()->showMessage(tr("What-if failed: %1").arg(message));
        return;
    }
    const std::int64_t previous = previous_run_;
    reload_runs();
    if (runs_->runs().empty()) return;
    const std::int64_t newest = runs_->runs().back().id;
    // The new run next to the one the user looked at before.
    if (previous > 0 && previous != newest && select_runs(newest, previous)) show_view(ViewKind::compare);
    else select_runs(newest);
    statusBar()->showMessage(tr("What-if stored as run %1").arg(newest));
}

void MainWindow::on_advise_finished(bool ok, const QString& message) {
    if (!ok) {
        statusBar()->showMessage(tr("Advise failed: %1").arg(message));
        return;
    }
    reload_runs();
    statusBar()->showMessage(tr("Advise done: click a point to open its run"));
}

void MainWindow::open_run(std::int64_t run_id) {
    if (!select_runs(run_id))
        return show_error(tr("Run %1 is not in the open runs database%2: open the database dtsim advise stored its runs in.")
                              .arg(run_id)
                              .arg(db_ ? QStringLiteral(" (%1)").arg(QString::fromStdString(db_->path())) : QString()));
    show_view(ViewKind::timeline);
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

std::vector<InputFile> MainWindow::open_files() const {
    return {{"the runs database", db_ ? db_->path() : std::string()}, {"the what-if scenario", whatif_->scenario_file().toStdString()}};
}

void MainWindow::export_view(const QString& suffix) {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), QStringLiteral("dtsim-view.") + suffix,
                                                      suffix.toUpper() + QStringLiteral(" (*.") + suffix + QLatin1Char(')'));
    if (path.isEmpty()) return;
    if (const QString error = export_widget(tabs_->currentWidget(), path, open_files()); !error.isEmpty()) show_error(error);
}

void MainWindow::export_trace() {
    const auto ids = selected_run_ids();
    if (!db_ || ids.empty()) return show_error(tr("Select a run to export first."));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export run as Chrome trace"),
                                                      QStringLiteral("run-%1.trace.json").arg(ids[0]), tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    try {
        const auto run = db_->load_full(ids[0]);
        if (const QString error = run ? export_chrome_trace(*run, path, open_files()) : tr("run %1 is gone").arg(ids[0]);
            !error.isEmpty())
            show_error(error);
    } catch (const std::exception& e) {
        show_error(QString::fromStdString(e.what()));
    }
}

}  // namespace dtsim::gui
