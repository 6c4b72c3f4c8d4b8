#!/usr/bin/env bash
# Draws the README's link heat-map: hot-spot traffic on an 8x8x8 torus, the utilisation of
# every link in the hot node's z plane over the measurement window. Each link is drawn between
# the two nodes it joins (the busier of its two directions); the wrap-around links sit at the
# right and top edges. Writes docs/figures/torus_hotspot_links.{gp,svg}.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${HYBRIDSIM:-./build/hybridsim}"
fig="${FIGURES_OUT:-docs/figures}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

hot="4,4,4"
plane=4
"$bin" run torus_traffic --quiet --set workload.pattern=hotspot --set "workload.hotspot=$hot" \
  --set workload.hotspot_fraction=0.2 --set workload.load=0.3 --set workload.warmup=20000 \
  --set workload.duration=100000 --link-csv "$work/links.csv"

# A (2X) x (2Y) grid: nodes at even (x, y) cells, the x link leaving a node at (2x+1, 2y), the
# y link at (2x, 2y+1); everything else empty.
awk -F, -v plane="$plane" '
  NR == 1 { next }
  $3 != plane || $4 ~ /z/ { next }
  {
    x = $1; y = $2
    if ($4 == "+x") { cx = 2 * x + 1; cy = 2 * y }
    else if ($4 == "-x") { cx = 2 * $5 + 1; cy = 2 * y }
    else if ($4 == "+y") { cx = 2 * x; cy = 2 * y + 1 }
    else { cx = 2 * x; cy = 2 * $6 + 1 }
    if (!((cx, cy) in u) || $11 > u[cx, cy]) u[cx, cy] = $11
    if (2 * x + 2 > w) w = 2 * x + 2
    if (2 * y + 2 > h) h = 2 * y + 2
  }
  END {
    for (cy = 0; cy < h; ++cy) {
      line = ""
      for (cx = 0; cx < w; ++cx) line = line ((cx, cy) in u ? u[cx, cy] : "NaN") (cx + 1 < w ? " " : "")
      print line
    }
  }' "$work/links.csv" > "$work/grid.txt"

split_hot=(${hot//,/ })
{
  cat <<GP
set terminal svg size 760,680 font 'sans,11' background '#ffffff'
set output '$fig/torus_hotspot_links.svg'
set title "8x8x8 torus, hot-spot traffic (20% of packets to node ($hot), load 0.3):\\nlink utilisation in the plane z = $plane, busier direction of each link" noenhanced
set size ratio -1
set xrange [-0.5:15.5]
set yrange [-0.5:15.5]
set xtics ('0' 0, '1' 2, '2' 4, '3' 6, '4' 8, '5' 10, '6' 12, '7' 14)
set ytics ('0' 0, '1' 2, '2' 4, '3' 6, '4' 8, '5' 10, '6' 12, '7' 14)
set xlabel 'x (links between nodes; wrap-around links at the right edge)' noenhanced
set ylabel 'y (wrap-around links at the top edge)' noenhanced
set cbrange [0:1]
set cblabel 'link utilisation over the measurement window' noenhanced
set palette defined (0 '#f7fbff', 0.3 '#6baed6', 0.6 '#fd8d3c', 1 '#a50f15')
set object 1 circle at $((2 * split_hot[0])),$((2 * split_hot[1])) size 0.5 fc rgb '#000000' fs solid front
set label 1 'hot node' at $((2 * split_hot[0] + 1)),$((2 * split_hot[1] - 1)) front
\$grid << EOD
GP
  cat "$work/grid.txt"
  cat <<'GP'
EOD
plot $grid matrix with image notitle
GP
} > "$fig/torus_hotspot_links.gp"
gnuplot "$fig/torus_hotspot_links.gp"
echo "figure in $fig/torus_hotspot_links.svg"
