set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/parallel_scaling.svg'
set title 'Partitioned runs: speed-up against the one-process run' noenhanced
set xlabel 'processes (mpirun -np P)' noenhanced
set ylabel 'speed-up (one-process wall time / wall time)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set xrange [0.8:2.5]
set yrange [0:2.2]
set logscale x 2
$s0 << EOD
1 1
2 1.55158
EOD
$s1 << EOD
1 1
2 1.95403
EOD
$s2 << EOD
1 1
2 2.0168
EOD
plot x title 'ideal' with lines dashtype 2 lc rgb '#888888', $s0 using 1:2 title 'traffic 32x32x32 load 0.1' with linespoints, $s1 using 1:2 title 'traffic 32x32x32 load 0.8' with linespoints, $s2 using 1:2 title 'halo3d 16x16x16' with linespoints
