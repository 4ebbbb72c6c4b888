#pragma once
// Paints an LLM layout's span marks (llm_spans.hpp) over the rastered lanes of single ranks:
// communication in its dimension's colour, pipeline bubbles, and pass labels where the compute strip
// is tall enough to read them.
#include <vector>

#include "lane_raster.hpp"

class QImage;

namespace dtsim::gui {

void paint_llm_marks(QImage& lanes, const SpanStore& store, const PixelGrid& grid, const std::vector<LaneBand>& bands);

}  // namespace dtsim::gui
