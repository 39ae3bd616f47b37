# sweep-frame.gp: what every sweep figure shares (`narwhal sweep`, plots/README.md): the title,
# wrapped at the picture's width rather than cut, the axes' labels, the grid and the legend.
# sweep-bars.gp and sweep-lines.gp load it first; the variables it reads come from the
# figure's OUT.gp, or from a sweep's own script before it loads them (plots/README.md).

# A title as wide as the picture: about 9.5 pixels a character in the terminal's font. It
# breaks at the last space that fits (inside a word only where a word is longer than a line).
last_space(s, i) = i < 1 ? 0 : (s[i:i] eq " " ? i : last_space(s, i - 1))
wrap_at(s, n, b) = b > 1 ? s[1:b - 1] . "\n" . wrap(s[b + 1:], n) \
                         : s[1:n] . "\n" . wrap(s[n + 1:], n)
wrap(s, n) = strlen(s) <= n ? s : wrap_at(s, n, last_space(s, n + 1))
set title wrap(title_text, int((width - 40) / 9.5))

set datafile separator ','
set xlabel xkey
set ylabel "makespan (s)"
# Makespans from 0, so that bars and lines compare as lengths, with room above the highest;
# a sweep's own script sets ylog (a base) where they span decades.
if (!exists("ylog")) ylog = 0
# On a log axis the ends are the extreme makespans, with room below too (y_low: the
# offset under the lowest, graph units), not the next decade.
# Within a decade or two a log axis labels too few tics: 1, 2, 3 and 5 times each power of ten
# in the makespans' range get one.
if (ylog > 0) {
  set logscale y ylog
  set autoscale yfix
  y_low = 0.05
  stats csv skip 1 using ycol nooutput
  do for [e = floor(log10(STATS_min)):ceil(log10(STATS_max))] {
    do for [m in "1 2 3 5"] {
      t = real(m) * 10.0**e
      if (t >= STATS_min / 1.3 && t <= STATS_max * 1.3) { set ytics add (sprintf("%g", t) t) }
    }
  }
} else {
  set yrange [0:*]
  y_low = 0
}
set offsets 0, 0, graph 0.05, graph y_low
set grid ytics lc rgb "gray80"
set border 3
set tics nomirror
# The legend under the plot: never over a bar or a line, and as wide as the picture for long
# series names. With several series its title says which makespans they are.
set key outside below center horizontal reverse Left samplen 3 width 1 height 0.5
if (series > 1 && strlen(what) > 0) set key title what . " makespan:"
