#pragma once
// A legend of coloured marks and names that wraps between entries and never inside a name: a rich-text
// label breaks lines after '/' and '-', which split "allreduce/ring" over two lines.
#include <QColor>
#include <QLabel>
#include <vector>

namespace dtsim::gui {

struct LegendEntry {
    QColor colour;
    QString mark;  // "■", "—●—"
    QString name;
};

class SeriesLegend : public QLabel {
    Q_OBJECT
public:
    explicit SeriesLegend(QWidget* parent = nullptr);
    void set_entries(std::vector<LegendEntry> entries);
    /// The entries' names, line by line as shown at the current width.
    std::vector<QStringList> lines() const { return lines_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void lay_out();

    std::vector<LegendEntry> entries_;
    std::vector<QStringList> lines_;
};

}  // namespace dtsim::gui
