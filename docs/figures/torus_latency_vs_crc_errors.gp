set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/torus_latency_vs_crc_errors.svg'
set title '4x4x4 torus, uniform traffic: latency vs link CRC error rate, by offered load' noenhanced
set xlabel 'CRC error rate per link traversal' noenhanced
set ylabel 'mean packet latency (ns)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'workload.load' noenhanced
set logscale x 2
set xrange [9.99e-07:0.1001]
set xtics ('9.53674e-07' 9.5367431640625e-07, '3.8147e-06' 3.814697265625e-06, '1.52588e-05' 1.52587890625e-05, '6.10352e-05' 6.103515625e-05, '0.000244141' 0.000244140625, '0.000976562' 0.0009765625, '0.00390625' 0.00390625, '0.015625' 0.015625, '0.0625' 0.0625)
set logscale y
set format y '%.0s%c'
$s0 << EOD
1e-06 1164.695911 1164.695911 1164.695911
1e-05 1163.645636 1163.645636 1163.645636
0.0001 1163.879839 1163.879839 1163.879839
0.001 1166.290116 1166.290116 1166.290116
0.01 1191.888644 1191.888644 1191.888644
0.1 1521.894735 1521.894735 1521.894735
EOD
$s1 << EOD
1e-06 22571.0848 22571.0848 22571.0848
1e-05 22375.66261 22375.66261 22375.66261
0.0001 22431.57442 22431.57442 22431.57442
0.001 22839.71316 22839.71316 22839.71316
0.01 28685.04131 28685.04131 28685.04131
0.1 81198.5891 81198.5891 81198.5891
EOD
plot $s0 using 1:2 with linespoints lw 2 title '0.5', \
     $s1 using 1:2 with linespoints lw 2 title '1.0'
