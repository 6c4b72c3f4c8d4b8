set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/cell_dma_latency_vs_size.svg'
set title 'One SPE, one GET at a time: latency vs size, from memory and from SPE1''s local store' noenhanced
set xlabel 'command size (bytes)' noenhanced
set ylabel 'GET latency, first channel write to tag status (ns)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'workload.target' noenhanced
set logscale x 2
set xrange [0.999:16400.384]
set xtics ('1' 1, '4' 4, '16' 16, '64' 64, '256' 256, '1Ki' 1024, '4Ki' 4096, '16Ki' 16384)
set logscale y
set format y '%.0s%c'
$s0 << EOD
1 117.5 117.5 117.5
2 117.5 117.5 117.5
4 117.5097656 117.5097656 117.5097656
8 117.5097656 117.5097656 117.5097656
16 118.1152344 118.1152344 118.1152344
32 119.375 119.375 119.375
64 122.5 122.5 122.5
128 128.75 128.75 128.75
256 133.75 133.75 133.75
512 143.75 143.75 143.75
1024 163.75 163.75 163.75
2048 273.75 273.75 273.75
4096 493.75 493.75 493.75
8192 933.75 933.75 933.75
16384 1813.75 1813.75 1813.75
EOD
$s1 << EOD
1 30.625 30.625 30.625
2 30.625 30.625 30.625
4 30.63476562 30.63476562 30.63476562
8 30.63476562 30.63476562 30.63476562
16 31.24023437 31.24023437 31.24023437
32 31.875 31.875 31.875
64 34.375 34.375 34.375
128 39.375 39.375 39.375
256 44.375 44.375 44.375
512 54.375 54.375 54.375
1024 74.375 74.375 74.375
2048 114.375 114.375 114.375
4096 194.375 194.375 194.375
8192 354.375 354.375 354.375
16384 674.375 674.375 674.375
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'memory', \
     $s1 using 1:2 with linespoints lw 2 title 'local_store'
