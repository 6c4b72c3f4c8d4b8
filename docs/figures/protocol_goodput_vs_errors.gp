set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/protocol_goodput_vs_errors.svg'
set title 'Every protocol against its fault''s error rate: fault-free completion time / completion time' noenhanced
set xlabel 'error rate of the fault that reaches the protocol (PCIe LCRC per TLP, Ethernet loss per frame, torus CRC per link traversal)' noenhanced
set ylabel 'goodput relative to the fault-free run' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'protocol' noenhanced
set logscale x 10
set xrange [9.99e-07:0.01001]
set xtics ('1e-6' 1e-6, '1e-5' 1e-5, '1e-4' 1e-4, '1e-3' 1e-3, '1e-2' 1e-2)
$s0 << EOD
1e-06 1 1 1
0.0001 1.000000436 1.000000436 1.000000436
0.001 1.000027411 1.000027411 1.000027411
0.01 1.000113747 1.000113747 1.000113747
EOD
$s1 << EOD
1e-06 0.9999868641 0.9999868641 0.9999868641
0.0001 0.9992020916 0.9992020916 0.9992020916
0.001 0.9923972756 0.9923972756 0.9923972756
0.01 0.9279417609 0.9279417609 0.9279417609
EOD
$s2 << EOD
1e-06 1 1 1
0.0001 0.999661459 0.999661459 0.999661459
0.001 0.9975178591 0.9975178591 0.9975178591
0.01 0.9691001873 0.9691001873 0.9691001873
EOD
$s3 << EOD
1e-06 1 1 1
0.0001 0.986867077 0.986867077 0.986867077
0.001 0.8688201345 0.8688201345 0.8688201345
0.01 0.4481893047 0.4481893047 0.4481893047
EOD
$s4 << EOD
1e-06 1 1 1
0.0001 0.9999975452 0.9999975452 0.9999975452
0.001 0.9999555858 0.9999555858 0.9999555858
0.01 0.9998563505 0.9998563505 0.9998563505
EOD
$s5 << EOD
1e-06 1 1 1
0.0001 0.9997752243 0.9997752243 0.9997752243
0.001 0.9983844939 0.9983844939 0.9983844939
0.01 0.993945606 0.993945606 0.993945606
EOD
$s6 << EOD
1e-06 1 1 1
0.0001 0.9999979363 0.9999979363 0.9999979363
0.001 1.000016735 1.000016735 1.000016735
0.01 0.9977376803 0.9977376803 0.9977376803
EOD
$s7 << EOD
1e-06 1 1 1
0.0001 0.9999098542 0.9999098542 0.9999098542
0.001 0.9975248909 0.9975248909 0.9975248909
0.01 0.9833399406 0.9833399406 0.9833399406
EOD
$s8 << EOD
1e-06 1 1 1
0.0001 0.9999450203 0.9999450203 0.9999450203
0.001 0.9982415282 0.9982415282 0.9982415282
0.01 0.9892032619 0.9892032619 0.9892032619
EOD
$s9 << EOD
1e-06 1 1 1
0.0001 0.999936395 0.999936395 0.999936395
0.001 0.9977661098 0.9977661098 0.9977661098
0.01 0.9824825439 0.9824825439 0.9824825439
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'mirrored counters', \
     $s1 using 1:2 with linespoints lw 2 title 'registration cache', \
     $s2 using 1:2 with linespoints lw 2 title 'pin/DMA/unpin', \
     $s3 using 1:2 with linespoints lw 2 title 'SLMPM messages', \
     $s4 using 1:2 with linespoints lw 2 title 'torus eager', \
     $s5 using 1:2 with linespoints lw 2 title 'torus rendezvous', \
     $s6 using 1:2 with linespoints lw 2 title 'torus split', \
     $s7 using 1:2 with linespoints lw 2 title 'AMI A', \
     $s8 using 1:2 with linespoints lw 2 title 'AMI B', \
     $s9 using 1:2 with linespoints lw 2 title 'AMI C'
