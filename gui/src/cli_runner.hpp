#pragma once
// The dtsim CLI as a child process, for the views that run it (what-if, advise): Run and Cancel buttons, a
// progress bar that follows its `--progress-lines`, and a log of what it writes. It runs in its own process
// group, so that Cancel also stops the simulations it starts; a failure's message is its error lines.
#include <QProcess>
#include <QWidget>

class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace dtsim::gui {

class CliRunner : public QWidget {
    Q_OBJECT
public:
    explicit CliRunner(const QString& dtsim_executable, QWidget* parent = nullptr);
    /// Starts dtsim with these arguments; `steps` sizes the progress bar until a progress line says more
    /// (0: a busy indicator).
    void start(const QStringList& arguments, int steps);
    /// Asks it to stop (SIGTERM to its group), and kills what still runs after a grace period.
    void cancel();
    bool is_running() const { return process_.state() != QProcess::NotRunning; }
    /// The log: the parent lays it out where it fits.
    QPlainTextEdit* log() const { return log_; }
    QPushButton* run_button() const { return run_; }

signals:
    /// The Run button was pressed: the parent starts dtsim, or says in the log why it cannot.
    void run_requested();
    /// ok: dtsim exited 0; message: "done", "cancelled", its error lines, or how it ended.
    void finished(bool ok, const QString& message);

private:
    void on_output();
    void on_finished(int exit_code, QProcess::ExitStatus status);

    QString executable_;
    QProcess process_;
    QString errors_;
    bool cancelled_ = false;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QPlainTextEdit* log_;
};

}  // namespace dtsim::gui
