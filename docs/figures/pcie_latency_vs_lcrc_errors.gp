set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/pcie_latency_vs_lcrc_errors.svg'
set title 'PCIe gen1 x8, 8 SPEs stream 1 MiB each: 16 KiB command latency vs LCRC error rate' noenhanced
set xlabel 'LCRC error rate per TLP (both directions)' noenhanced
set ylabel 'mean MFC command latency (ns)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'workload.direction' noenhanced
set logscale x 2
set xrange [9.99e-07:0.1001]
set xtics ('9.53674e-07' 9.5367431640625e-07, '3.8147e-06' 3.814697265625e-06, '1.52588e-05' 1.52587890625e-05, '6.10352e-05' 6.103515625e-05, '0.000244141' 0.000244140625, '0.000976562' 0.0009765625, '0.00390625' 0.00390625, '0.015625' 0.015625, '0.0625' 0.0625)
set logscale y
set format y '%.0s%c'
$s0 << EOD
1e-06 1070231.758 1070231.758 1070231.758
1e-05 1070231.758 1070231.758 1070231.758
0.0001 1070545.445 1070545.445 1070545.445
0.001 1077050.726 1077050.726 1077050.726
0.01 1141745.039 1141745.039 1141745.039
0.1 1853144.945 1853144.945 1853144.945
EOD
$s1 << EOD
1e-06 1292203.879 1292203.879 1292203.879
1e-05 1292401.818 1292401.818 1292401.818
0.0001 1293574.377 1293574.377 1293574.377
0.001 1304842.238 1304842.238 1304842.238
0.01 1412249.679 1412249.679 1412249.679
0.1 2840811.886 2840811.886 2840811.886
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'put', \
     $s1 using 1:2 with linespoints lw 2 title 'get'
