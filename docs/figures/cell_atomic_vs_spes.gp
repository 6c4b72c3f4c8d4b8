set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/cell_atomic_vs_spes.svg'
set title 'An atomic counter under GETLLAR/PUTLLC: throughput vs the SPEs contending' noenhanced
set xlabel 'SPEs incrementing' noenhanced
set ylabel 'increments per microsecond, all SPEs' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
$s0 << EOD
1 17.41906579 17.41906579 17.41906579
2 7.096911988 7.096911988 7.096911988
3 7.92192447 7.92192447 7.92192447
4 6.632914968 6.632914968 6.632914968
5 7.130293972 7.130293972 7.130293972
6 6.203578108 6.203578108 6.203578108
7 6.829129312 6.829129312 6.829129312
8 6.391306749 6.391306749 6.391306749
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'results:increments_per_us'
