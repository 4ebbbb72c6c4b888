#include "cli_runner.hpp"

#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>
#include <csignal>
#include <unistd.h>

namespace dtsim::gui {
namespace {

// How long a cancelled run has to stop before it is killed.
constexpr int kCancelGraceMs = 5000;

}  // namespace

CliRunner::CliRunner(const QString& dtsim_executable, QWidget* parent)
    : QWidget(parent), executable_(dtsim_executable), run_(new QPushButton(tr("Run"), this)), cancel_(new QPushButton(tr("Cancel"), this)),
      progress_(new QProgressBar(this)), log_(new QPlainTextEdit) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(run_);
    layout->addWidget(cancel_);
    layout->addWidget(progress_, 1);
    cancel_->setEnabled(false);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(500);
    // Its own process group, so that Cancel also stops the simulations a sweep or a plan starts as its children.
    process_.setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(run_, &QPushButton::clicked, this, &CliRunner::run_requested);
    connect(cancel_, &QPushButton::clicked, this, &CliRunner::cancel);
    connect(&process_, &QProcess::readyReadStandardError, this, &CliRunner::on_output);
    connect(&process_, &QProcess::readyReadStandardOutput, this, &CliRunner::on_output);
    connect(&process_, &QProcess::finished, this, &CliRunner::on_finished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) on_finished(-1, QProcess::CrashExit);
    });
}

void CliRunner::start(const QStringList& arguments, int steps) {
    if (is_running()) return;
    errors_.clear();
    cancelled_ = false;
    log_->appendPlainText(QStringLiteral("$ dtsim ") + arguments.join(QLatin1Char(' ')));
    progress_->setRange(0, steps);
    progress_->setValue(0);
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    process_.start(executable_, arguments);
}

void CliRunner::cancel() {
    if (!is_running()) return;
    cancelled_ = true;
    const auto pid = static_cast<pid_t>(process_.processId());
    if (pid <= 0) return;
    // Asked to stop first: dtsim passes the signal on to its simulations and removes its scratch folder.
    // Whatever still runs after the grace period is killed.
    ::kill(-pid, SIGTERM);
    QTimer::singleShot(kCancelGraceMs, this, [this, pid] {
        if (is_running() && static_cast<pid_t>(process_.processId()) == pid) {
            ::kill(-pid, SIGKILL);
            process_.kill();
        }
    });
}

void CliRunner::on_output() {
    static const QRegularExpression progress(QStringLiteral(R"(\[(\d+)/(\d+)\])"));
    const QString text = QString::fromLocal8Bit(process_.readAllStandardError() + process_.readAllStandardOutput());
    for (const auto& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        log_->appendPlainText(line);
        if (const auto match = progress.match(line); match.hasMatch()) {
            progress_->setRange(0, match.captured(2).toInt());
            progress_->setValue(match.captured(1).toInt());
        } else if (line.contains(QLatin1String("error"))) {
            errors_ += line + QLatin1Char('\n');
        }
    }
}

void CliRunner::on_finished(int exit_code, QProcess::ExitStatus status) {
    on_output();
    run_->setEnabled(true);
    cancel_->setEnabled(false);
    progress_->setRange(0, 1);
    const bool ok = status == QProcess::NormalExit && exit_code == 0;
    progress_->setValue(ok ? 1 : 0);
    QString message = ok ? tr("done") : cancelled_ ? tr("cancelled") : errors_.trimmed();
    if (!ok && message.isEmpty())
        message = status == QProcess::CrashExit ? tr("dtsim did not finish (%1: %2)").arg(executable_, process_.errorString())
                                                : tr("dtsim exited with code %1").arg(exit_code);
    log_->appendPlainText(message);
    emit finished(ok, message);
}

}  // namespace dtsim::gui
