#!/usr/bin/env bash
# Time to paint one frame of the GUI's timeline for a 4096-rank run with about 12 million spans, fully
# zoomed out and zoomed in to 1 % (1600x1000 widget, cold frame: no cached lane image); writes
# bench/results/gui-frame.md. Usage: bench/gui-frame/run.sh [path/to/gui_frame_bench]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bench="${1:-$root/build/bin/gui_frame_bench}"
out="$root/bench/results/gui-frame.md"
result="$(QT_QPA_PLATFORM=offscreen "$bench" 2>/dev/null)"
value() { sed -n "s/^$1 //p" <<<"$result"; }
{
  echo "# bench/gui-frame"
  echo
  echo "One cold frame (lane image redrawn, axis and labels painted) of the timeline widget, 1600x1000, for"
  echo "a synthetic run of $(value ranks) ranks (512 nodes x 8 GPUs) and $(value spans) spans (1000 iterations"
  echo "of forward, backward and an all-reduce or a wait per rank). Median of 15 frames. Target: <= 33 ms each;"
  echo "the naive per-span painter measured ~800 ms (docs/architecture.md, \"GUI timeline\")."
  echo
  echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB;"
  echo "  load average when measured: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $(git -C "$root" rev-parse --short HEAD)"
  echo "- span store build (sort + pyramids): $(value build_s) s"
  echo
  echo "| view | wall time | CPU time of the painting thread |"
  echo "|---|---|---|"
  echo "| fully zoomed out | $(value frame_full_wall_ms) ms | $(value frame_full_cpu_ms) ms |"
  echo "| zoomed in to 1 % | $(value frame_zoom1pct_wall_ms) ms | $(value frame_zoom1pct_cpu_ms) ms |"
  echo
  echo "CPU time is what the frame costs; wall time also counts the waits for a core on the shared machine."
  echo
  echo "How: per rank and kind, spans sorted by start with a coverage pyramid (4096 one-byte buckets, halved"
  echo "level by level) plus summed pyramids per aligned 8-rank group. Zoomed out, a frame reads the coarsest"
  echo "level whose buckets are at most a pixel wide, for bands of 2^k merged lanes (group sums where whole);"
  echo "zoomed in, it reads the visible spans themselves, found by a galloping search and added as +1/-1 ramps."
  echo "During development on this machine: 77 / 39 ms (wall, per-pixel span loops), 24 / 15 ms CPU (ramps,"
  echo "-O3), then the figures above (group pyramids, galloping search)."
} > "$out"
cat "$out"
