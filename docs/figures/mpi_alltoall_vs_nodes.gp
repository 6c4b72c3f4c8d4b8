set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/mpi_alltoall_vs_nodes.svg'
set title 'Alltoall of 64 B a pair (pairwise exchange): time vs machine size' noenhanced
set xlabel 'nodes (one rank each)' noenhanced
set ylabel 'time per alltoall (ns)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set logscale x 2
set xrange [7.992:512.512]
set xtics ('8' 8, '16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512)
set logscale y
set format y '%.0s%c'
$s0 << EOD
8 16350 16350 16350
16 35062.35294 35062.35294 35062.35294
32 74468.82353 74468.82353 74468.82353
64 153821.1765 153821.1765 153821.1765
128 318586.4706 318586.4706 318586.4706
256 724819.4118 724819.4118 724819.4118
512 1470380 1470380 1470380
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'results:time_per_iteration_ns'
