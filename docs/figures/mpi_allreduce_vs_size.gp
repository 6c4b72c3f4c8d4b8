set terminal svg size 960,600 font 'sans,11' background '#ffffff'
set output 'docs/figures/mpi_allreduce_vs_size.svg'
set title 'Allreduce on a 4x4x4 torus, 64 ranks: latency vs message size, by algorithm' noenhanced
set xlabel 'vector per rank (bytes)' noenhanced
set ylabel 'allreduce latency (ns)' noenhanced
set grid
set key outside right top noenhanced
set pointsize 0.8
set key title 'mpi.algorithm.allreduce' noenhanced
set logscale x 2
set xrange [7.992:262406.144]
set xtics ('8' 8, '32' 32, '128' 128, '512' 512, '2Ki' 2048, '8Ki' 8192, '32Ki' 32768, '128Ki' 131072)
set logscale y
set format y '%.0s%c'
$s0 << EOD
8 14320 14320 14320
64 16403.52941 16403.52941 16403.52941
512 31393.52941 31393.52941 31393.52941
4096 104378.8235 104378.8235 104378.8235
32768 693661.1765 693661.1765 693661.1765
262144 5430607.059 5430607.059 5430607.059
EOD
$s1 << EOD
8 243396.2408 243396.2408 243396.2408
64 263361.1213 263361.1213 263361.1213
512 264725.2941 264725.2941 264725.2941
4096 296659.6324 296659.6324 296659.6324
32768 569156.6912 569156.6912 569156.6912
262144 2702096.618 2702096.618 2702096.618
EOD
$s2 << EOD
8 24952.79412 24952.79412 24952.79412
64 27939.29228 27939.29228 27939.29228
512 53453.54779 53453.54779 53453.54779
4096 175247.3529 175247.3529 175247.3529
32768 1026804.403 1026804.403 1026804.403
262144 7528347.059 7528347.059 7528347.059
EOD
plot $s0 using 1:2 with linespoints lw 2 title 'recursive_doubling', \
     $s1 using 1:2 with linespoints lw 2 title 'ring', \
     $s2 using 1:2 with linespoints lw 2 title 'binomial'
