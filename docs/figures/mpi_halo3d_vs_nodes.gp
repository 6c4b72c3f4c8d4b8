set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/mpi_halo3d_vs_nodes.svg'
set title 'halo3d, 6 neighbours, 16^3 cells a rank: time per iteration vs machine size' noenhanced
set xlabel 'nodes (one rank each)' noenhanced
set ylabel 'time per iteration (ns)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set logscale x 2
set xrange [7.992:4100.096]
set xtics ('8' 8, '16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512, '1Ki' 1024, '2Ki' 2048, '4Ki' 4096)
$s0 << EOD
8 153218.8235 153218.8235 153218.8235
64 153232.9412 153232.9412 153232.9412
512 153232.9412 153232.9412 153232.9412
4096 153232.9412 153232.9412 153232.9412
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'results:time_per_iteration_ns'
