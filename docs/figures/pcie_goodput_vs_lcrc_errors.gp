set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/pcie_goodput_vs_lcrc_errors.svg'
set title 'PCIe gen1 x8, 8 SPEs stream 1 MiB each: goodput vs LCRC error rate (NAK and replay)' noenhanced
set xlabel 'LCRC error rate per TLP (both directions)' noenhanced
set ylabel 'goodput (GB/s)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'workload.direction' noenhanced
set logscale x 2
set xrange [9.99e-07:0.1001]
set xtics ('9.53674e-07' 9.5367431640625e-07, '3.8147e-06' 3.814697265625e-06, '1.52588e-05' 1.52587890625e-05, '6.10352e-05' 6.103515625e-05, '0.000244141' 0.000244140625, '0.000976562' 0.0009765625, '0.00390625' 0.00390625, '0.015625' 0.015625, '0.0625' 0.0625)
$s0 << EOD
1e-06 1.729576598 1.729576598 1.729576598
1e-05 1.729576598 1.729576598 1.729576598
0.0001 1.728947772 1.728947772 1.728947772
0.001 1.718567349 1.718567349 1.718567349
0.01 1.621244768 1.621244768 1.621244768
0.1 0.9988220071 0.9988220071 0.9988220071
EOD
$s1 << EOD
1e-06 1.432718391 1.432718391 1.432718391
1e-05 1.432490427 1.432490427 1.432490427
0.0001 1.431250295 1.431250295 1.431250295
0.001 1.419472689 1.419472689 1.419472689
0.01 1.310972887 1.310972887 1.310972887
0.1 0.6513243738 0.6513243738 0.6513243738
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'put', \
     $s1 using 1:2 with linespoints lw 2 title 'get'
