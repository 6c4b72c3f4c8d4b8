set terminal svg size 760,680 font 'sans,11' background '#ffffff'
set output 'docs/figures/torus_hotspot_links.svg'
set title "8x8x8 torus, hot-spot traffic (20% of packets to node (4,4,4), load 0.3):\nlink utilisation in the plane z = 4, busier direction of each link" noenhanced
set size ratio -1
set xrange [-0.5:15.5]
set yrange [-0.5:15.5]
set xtics ('0' 0, '1' 2, '2' 4, '3' 6, '4' 8, '5' 10, '6' 12, '7' 14)
set ytics ('0' 0, '1' 2, '2' 4, '3' 6, '4' 8, '5' 10, '6' 12, '7' 14)
set xlabel 'x (links between nodes; wrap-around links at the right edge)' noenhanced
set ylabel 'y (wrap-around links at the top edge)' noenhanced
set cbrange [0:1]
set cblabel 'link utilisation over the measurement window' noenhanced
set palette defined (0 '#f7fbff', 0.3 '#6baed6', 0.6 '#fd8d3c', 1 '#a50f15')
set object 1 circle at 8,8 size 0.5 fc rgb '#000000' fs solid front
set label 1 'hot node' at 9,7 front
$grid << EOD
NaN 0.329357 NaN 0.379359 NaN 0.457737 NaN 0.365201 NaN 0.260894 NaN 0.335435 NaN 0.335435 NaN 0.264906
0.341647 NaN 0.323012 NaN 0.291953 NaN 0.222831 NaN 0.204335 NaN 0.167718 NaN 0.341647 NaN 0.298854 NaN
NaN 0.316800 NaN 0.351758 NaN 0.217412 NaN 0.080753 NaN 0.086965 NaN 0.194534 NaN 0.299494 NaN 0.267106
0.291953 NaN 0.341647 NaN 0.242884 NaN 0.220344 NaN 0.136659 NaN 0.181877 NaN 0.304376 NaN 0.347859 NaN
NaN 0.323012 NaN 0.339717 NaN 0.192565 NaN 0.049694 NaN 0.062118 NaN 0.217412 NaN 0.316800 NaN 0.267106
0.310588 NaN 0.328202 NaN 0.279529 NaN 0.323012 NaN 0.126437 NaN 0.183104 NaN 0.254682 NaN 0.340988 NaN
NaN 0.349078 NaN 0.364832 NaN 0.453458 NaN 0.484517 NaN 0.267106 NaN 0.325053 NaN 0.309289 NaN 0.278200
0.303687 NaN 0.314511 NaN 0.124235 NaN 0.273317 NaN 1.000000 NaN 0.198776 NaN 0.167718 NaN 0.358742 NaN
NaN 0.253568 NaN 0.292312 NaN 0.316800 NaN 1.000000 NaN 1.000000 NaN 0.605540 NaN 0.490729 NaN 0.285741
0.341647 NaN 0.229835 NaN 0.124235 NaN 0.211200 NaN 1.000000 NaN 0.118023 NaN 0.192565 NaN 0.329223 NaN
NaN 0.360282 NaN 0.472094 NaN 0.490729 NaN 0.531606 NaN 0.316800 NaN 0.319262 NaN 0.353190 NaN 0.267106
0.293189 NaN 0.335435 NaN 0.304376 NaN 0.310588 NaN 0.136659 NaN 0.206859 NaN 0.310347 NaN 0.329223 NaN
NaN 0.317392 NaN 0.349091 NaN 0.251185 NaN 0.090320 NaN 0.105434 NaN 0.242259 NaN 0.316800 NaN 0.261326
0.305712 NaN 0.323012 NaN 0.285741 NaN 0.304376 NaN 0.130447 NaN 0.265181 NaN 0.310588 NaN 0.254682 NaN
NaN 0.288172 NaN 0.331387 NaN 0.360457 NaN 0.223623 NaN 0.130447 NaN 0.260894 NaN 0.298164 NaN 0.226695
0.305150 NaN 0.260894 NaN 0.279529 NaN 0.313715 NaN 0.049748 NaN 0.298164 NaN 0.273823 NaN 0.279579 NaN
EOD
plot $grid matrix with image notitle
