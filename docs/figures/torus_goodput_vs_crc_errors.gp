set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/torus_goodput_vs_crc_errors.svg'
set title '4x4x4 torus, uniform traffic: goodput vs link CRC error rate, by offered load' noenhanced
set xlabel 'CRC error rate per link traversal' noenhanced
set ylabel 'accepted load (fraction of the bisection bound)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'workload.load' noenhanced
set logscale x 2
set xrange [9.99e-07:0.1001]
set xtics ('9.53674e-07' 9.5367431640625e-07, '3.8147e-06' 3.814697265625e-06, '1.52588e-05' 1.52587890625e-05, '6.10352e-05' 6.103515625e-05, '0.000244141' 0.000244140625, '0.000976562' 0.0009765625, '0.00390625' 0.00390625, '0.015625' 0.015625, '0.0625' 0.0625)
$s0 << EOD
1e-06 0.4985620588 0.4985620588 0.4985620588
1e-05 0.4985717647 0.4985717647 0.4985717647
0.0001 0.4985329412 0.4985329412 0.4985329412
0.001 0.4985523529 0.4985523529 0.4985523529
0.01 0.4985280882 0.4985280882 0.4985280882
0.1 0.4985620588 0.4985620588 0.4985620588
EOD
$s1 << EOD
1e-06 0.9757614706 0.9757614706 0.9757614706
1e-05 0.9758633824 0.9758633824 0.9758633824
0.0001 0.9758439706 0.9758439706 0.9758439706
0.001 0.9755042647 0.9755042647 0.9755042647
0.01 0.9669873529 0.9669873529 0.9669873529
0.1 0.8745 0.8745 0.8745
EOD
plot $s0 using 1:2 with linespoints lw 2 title '0.5', \
     $s1 using 1:2 with linespoints lw 2 title '1.0'
