#pragma once
// The main window: the run browser (filter, sort, pick one or two runs) beside the views (timeline,
// compare, speedup, what-if, advise), with File → Open and the exports.
#include <QMainWindow>
#include <memory>
#include <optional>

#include "dtsim/output_files.hpp"
#include "run_database.hpp"

class QLineEdit;
class QMessageBox;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;

namespace dtsim::gui {

class AdviseView;
class CompareView;
class RunListModel;
class SpeedupView;
class TimelineView;
class WhatIfPanel;

enum class ViewKind { timeline, compare, speedup, whatif, advise };

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& dtsim_executable, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// On failure shows an error dialog (non-modal) and keeps the previous database; returns false.
    bool open_database(const QString& path);
    /// Selects runs in the browser (the second is optional) and shows them; false if an id is unknown.
    bool select_runs(std::int64_t first, std::optional<std::int64_t> second = std::nullopt);
    void show_view(ViewKind view);
    /// The whole window rendered at that size (used by --screenshot and the tests).
    QImage screenshot(const QSize& size);

    QString last_error() const { return last_error_; }
    QMessageBox* error_dialog() const { return error_dialog_; }
    RunListModel* run_list() const { return runs_; }
    TimelineView* timeline_view() const { return timeline_; }
    CompareView* compare_view() const { return compare_; }
    WhatIfPanel* whatif_panel() const { return whatif_; }
    AdviseView* advise_view() const { return advise_; }
    std::vector<std::int64_t> selected_run_ids() const;
    /// The files the window reads (the runs database, the what-if scenario), which an export must not replace.
    std::vector<InputFile> open_files() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void build_menus();
    void reload_runs();
    /// Widens the run browser so that its columns up to this one show whole.
    void show_browser_columns_through(int last_column);
    void on_selection_changed();
    void on_whatif_finished(bool ok, const QString& message);
    void on_advise_finished(bool ok, const QString& message);
    /// A configuration's run, chosen on the Advise view: its timeline.
    void open_run(std::int64_t run_id);
    void show_error(const QString& text);
    void export_view(const QString& suffix);
    void export_trace();

    std::unique_ptr<RunDatabase> db_;
    RunListModel* runs_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QTableView* table_;
    QSplitter* splitter_;
    QTabWidget* tabs_;
    TimelineView* timeline_;
    CompareView* compare_;
    SpeedupView* speedup_;
    WhatIfPanel* whatif_;
    AdviseView* advise_;
    QMessageBox* error_dialog_ = nullptr;
    QString last_error_;
    std::int64_t previous_run_ = 0;
};

}  // namespace dtsim::gui
