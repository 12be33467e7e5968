# plot.gp - overlap and latency against message size from nbo_bench's CSV (-o).
#   gnuplot -e "csv='out/overlap.csv'; png='out/overlap.png'; title='2 hosts, 200mbit'" bench/driver/plot.gp
# Columns (see report_csv_header): 1 method, 6 size, 13 pure_us, 14 overlap_pct,
# 17 work_overlap_pct, 23 lib_cpu_us, 24 provider_cpu_us.
if (!exists("csv")) csv = 'overlap.csv'
if (!exists("png")) png = 'overlap.png'
if (!exists("title")) title = ''

methods = system(sprintf("tail -n +2 '%s' | cut -d, -f1 | awk '!seen[$0]++' | tr '\\n' ' '", csv))
# MPI's blocking row (MPI_Alltoall, ...) has a latency only: left out of the
# overlap panel.
overlapping = system(sprintf("tail -n +2 '%s' | awk -F, '$14 != \"\" {print $1}' | awk '!seen[$0]++' | tr '\\n' ' '", csv))
# The same colour for a method in both panels: its place in `methods`.
colour(m) = sum [k=1:words(methods)] (word(methods,k) eq m ? k : 0)
rows(m) = sprintf("< awk -F, '$1 == \"%s\"' '%s'", m, csv)

set terminal pngcairo size 2100,520 font ",10" noenhanced
set output png
set datafile separator ','
set multiplot layout 1,3 title title
set logscale x 2
set format x "%.0b %BB"
set xlabel 'size (-C: bytes per peer, vector, block per rank or message)'
set key bottom right font ",8"
set grid

set title 'Overlap (work-based solid, OSU dashed)'
set ylabel 'overlap (%)'
set yrange [0:105]
plot for [i=1:words(overlapping)] rows(word(overlapping,i)) using 6:17 with linespoints lw 2 lc colour(word(overlapping,i)) pt 7 title word(overlapping,i), \
     for [i=1:words(overlapping)] rows(word(overlapping,i)) using 6:14 with lines dt 2 lc colour(word(overlapping,i)) notitle

set title 'Pure latency'
set ylabel 'us per operation'
set logscale y
set autoscale y
set key top left
plot for [i=1:words(methods)] rows(word(methods,i)) using 6:13 with linespoints lw 2 lc i pt 7 title word(methods,i)

# Whose CPU the overlapped operation took: the library's own threads and
# calls, and every other thread but the caller's (a provider's, MPI's).
set title 'CPU per operation, work phase (library solid, provider dashed)'
set ylabel 'us per operation'
plot for [i=1:words(overlapping)] rows(word(overlapping,i)) using 6:($23 > 0 ? $23 : NaN) with linespoints lw 2 lc colour(word(overlapping,i)) pt 7 title word(overlapping,i), \
     for [i=1:words(overlapping)] rows(word(overlapping,i)) using 6:($24 > 0 ? $24 : NaN) with linespoints dt 2 lc colour(word(overlapping,i)) pt 6 notitle
unset multiplot
