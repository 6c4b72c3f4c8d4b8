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
NaN 0.347859 NaN 0.402933 NaN 0.476774 NaN 0.304376 NaN 0.273317 NaN 0.335837 NaN 0.335435 NaN 0.253605
0.317233 NaN 0.285741 NaN 0.305785 NaN 0.267044 NaN 0.165646 NaN 0.236047 NaN 0.300711 NaN 0.295519 NaN
NaN 0.323012 NaN 0.354070 NaN 0.236047 NaN 0.118023 NaN 0.086965 NaN 0.265440 NaN 0.296009 NaN 0.279529
0.298164 NaN 0.335435 NaN 0.285741 NaN 0.223623 NaN 0.124235 NaN 0.222447 NaN 0.335435 NaN 0.335435 NaN
NaN 0.341647 NaN 0.366287 NaN 0.204988 NaN 0.093454 NaN 0.093176 NaN 0.198776 NaN 0.291953 NaN 0.279529
0.304376 NaN 0.332691 NaN 0.236077 NaN 0.229835 NaN 0.223623 NaN 0.248840 NaN 0.279529 NaN 0.354070 NaN
NaN 0.344589 NaN 0.329595 NaN 0.298685 NaN 0.285741 NaN 0.293482 NaN 0.274686 NaN 0.285741 NaN 0.260894
0.304376 NaN 0.247605 NaN 0.106461 NaN 0.248470 NaN 1.000000 NaN 0.237805 NaN 0.174668 NaN 0.303434 NaN
NaN 0.241883 NaN 0.183075 NaN 0.253739 NaN 1.000000 NaN 1.000000 NaN 0.273317 NaN 0.186505 NaN 0.248585
0.354070 NaN 0.173929 NaN 0.118023 NaN 0.223679 NaN 1.000000 NaN 0.217412 NaN 0.136659 NaN 0.267710 NaN
NaN 0.347859 NaN 0.350172 NaN 0.279529 NaN 0.280300 NaN 0.284130 NaN 0.285741 NaN 0.304376 NaN 0.256484
0.281889 NaN 0.297761 NaN 0.180141 NaN 0.209916 NaN 0.223623 NaN 0.209099 NaN 0.273317 NaN 0.299200 NaN
NaN 0.354051 NaN 0.298164 NaN 0.252908 NaN 0.093176 NaN 0.099388 NaN 0.260894 NaN 0.298164 NaN 0.293388
0.273317 NaN 0.298164 NaN 0.267106 NaN 0.217412 NaN 0.124235 NaN 0.240165 NaN 0.295479 NaN 0.225149 NaN
NaN 0.289105 NaN 0.357434 NaN 0.285741 NaN 0.111812 NaN 0.106982 NaN 0.256945 NaN 0.299937 NaN 0.213786
0.298164 NaN 0.223623 NaN 0.280052 NaN 0.236047 NaN 0.056667 NaN 0.282282 NaN 0.245295 NaN 0.251546 NaN
EOD
plot $grid matrix with image notitle
