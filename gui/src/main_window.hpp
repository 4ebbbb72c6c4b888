#pragma once
// The main window: the run browser (filter, sort, pick one or two runs) beside the views (timeline,
// compare, speedup, what-if), with File → Open and the exports.
#include <QMainWindow>
#include <memory>
#include <optional>

#include "run_database.hpp"

class QLineEdit;
class QMessageBox;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace dtsim::gui {

class CompareView;
class RunListModel;
class SpeedupView;
class TimelineView;
class WhatIfPanel;

enum class ViewKind { timeline, compare, speedup, whatif };

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& dtsim_executable, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// On failure shows an error dialog (non-modal) and keeps the previous database; returns false.
    bool openDatabase(const QString& path);
    /// Selects runs in the browser (the second is optional) and shows them; false if an id is unknown.
    bool selectRuns(std::int64_t first, std::optional<std::int64_t> second = std::nullopt);
    void showView(ViewKind view);
    /// The whole window rendered at that size (used by --screenshot and the tests).
    QImage screenshot(const QSize& size);

    QString lastError() const { return m_last_error; }
    QMessageBox* errorDialog() const { return m_error_dialog; }
    RunListModel* runList() const { return m_runs; }
    QSortFilterProxyModel* runListProxy() const { return m_proxy; }
    QLineEdit* runFilter() const { return m_filter; }
    TimelineView* timelineView() const { return m_timeline; }
    CompareView* compareView() const { return m_compare; }
    WhatIfPanel* whatIfPanel() const { return m_whatif; }
    std::vector<std::int64_t> selectedRunIds() const;

private:
    void buildMenus();
    void reloadRuns();
    void onSelectionChanged();
    void onWhatIfFinished(bool ok, const QString& message);
    void showError(const QString& text);
    void exportView(const QString& suffix);
    void exportTrace();

    std::unique_ptr<RunDatabase> m_db;
    RunListModel* m_runs;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_table;
    QTabWidget* m_tabs;
    TimelineView* m_timeline;
    CompareView* m_compare;
    SpeedupView* m_speedup;
    WhatIfPanel* m_whatif;
    QMessageBox* m_error_dialog = nullptr;
    QString m_last_error;
    std::int64_t m_previous_run = 0;
};

}  // namespace dtsim::gui
