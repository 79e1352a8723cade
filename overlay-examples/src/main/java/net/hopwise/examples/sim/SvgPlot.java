package net.hopwise.examples.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart written as SVG by hand: a few series of (x, y ± error) points, linear x, linear or
 * logarithmic y. Small enough that a plotting library would be more code to depend on than to keep.
 */
final class SvgPlot {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f"};
    private static final int WIDTH = 640;
    private static final int HEIGHT = 400;
    private static final int LEFT = 70;
    private static final int RIGHT = 160;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();

    SvgPlot(String title, String xLabel, String yLabel, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logY = logY;
    }

    Series series(String name) {
        Series s = new Series(name);
        series.add(s);
        return s;
    }

    static final class Series {
        final String name;
        final List<double[]> points = new ArrayList<>();

        Series(String name) {
            this.name = name;
        }

        Series point(double x, double y, double error) {
            points.add(new double[] {x, y, Double.isNaN(error) ? 0 : error});
            return this;
        }
    }

    String render() {
        double xMin = Double.MAX_VALUE;
        double xMax = -Double.MAX_VALUE;
        double yMin = Double.MAX_VALUE;
        double yMax = -Double.MAX_VALUE;
        for (Series s : series) {
            for (double[] p : s.points) {
                xMin = Math.min(xMin, p[0]);
                xMax = Math.max(xMax, p[0]);
                double lo = p[1] - p[2];
                if (logY && lo <= 0) {
                    lo = p[1];
                }
                yMin = Math.min(yMin, lo);
                yMax = Math.max(yMax, p[1] + p[2]);
            }
        }
        if (xMin == Double.MAX_VALUE) {
            xMin = 0;
            xMax = 1;
            yMin = 0;
            yMax = 1;
        }
        if (xMax == xMin) {
            xMax = xMin + 1;
        }
        if (logY) {
            yMin = Math.pow(10, Math.floor(Math.log10(Math.max(1e-9, yMin))));
            yMax = Math.pow(10, Math.ceil(Math.log10(Math.max(yMin * 10, yMax))));
        } else {
            yMin = Math.min(0, yMin);
            yMax = yMax <= yMin ? yMin + 1 : yMax * 1.05;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        sb.append(text(WIDTH / 2.0, 20, title, "middle", 14));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"black\"/>%n", LEFT, TOP, plotW, plotH));
        // Axis ticks.
        for (int i = 0; i <= 5; i++) {
            double x = xMin + (xMax - xMin) * i / 5;
            double px = LEFT + plotW * i / 5.0;
            sb.append(line(px, TOP + plotH, px, TOP + plotH + 5, "black"));
            sb.append(text(px, TOP + plotH + 18, number(x), "middle", 11));
        }
        if (logY) {
            for (double y = yMin; y <= yMax * 1.0001; y *= 10) {
                double py = py(y, yMin, yMax, plotH);
                sb.append(line(LEFT - 5, py, LEFT + plotW, py, "#dddddd"));
                sb.append(text(LEFT - 8, py + 4, number(y), "end", 11));
            }
        } else {
            for (int i = 0; i <= 5; i++) {
                double y = yMin + (yMax - yMin) * i / 5;
                double py = py(y, yMin, yMax, plotH);
                sb.append(line(LEFT - 5, py, LEFT + plotW, py, "#dddddd"));
                sb.append(text(LEFT - 8, py + 4, number(y), "end", 11));
            }
        }
        sb.append(text(LEFT + plotW / 2.0, HEIGHT - 12, xLabel, "middle", 12));
        sb.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 16 %.1f)\">%s</text>%n", TOP + plotH / 2.0, TOP + plotH / 2.0, escape(yLabel)));
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            String colour = COLOURS[si % COLOURS.length];
            StringBuilder path = new StringBuilder();
            for (double[] p : s.points) {
                double px = LEFT + plotW * (p[0] - xMin) / (xMax - xMin);
                double py = py(p[1], yMin, yMax, plotH);
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n",
                        px, py, colour));
                if (p[2] > 0) {
                    double lo = p[1] - p[2];
                    double hi = p[1] + p[2];
                    if (logY && lo <= 0) {
                        lo = yMin;
                    }
                    sb.append(line(px, py(lo, yMin, yMax, plotH), px, py(hi, yMin, yMax, plotH), colour));
                }
            }
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>%n",
                    path, colour));
            double ly = TOP + 10 + si * 18;
            sb.append(line(LEFT + plotW + 10, ly, LEFT + plotW + 30, ly, colour));
            sb.append(text(LEFT + plotW + 35, ly + 4, s.name, "start", 11));
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private double py(double y, double yMin, double yMax, int plotH) {
        double f = logY ? (Math.log10(Math.max(y, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))
                : (y - yMin) / (yMax - yMin);
        return TOP + plotH * (1 - Math.max(0, Math.min(1, f)));
    }

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                x1, y1, x2, y2, colour);
    }

    private static String text(double x, double y, String s, String anchor, int size) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, escape(s));
    }

    private static String number(double v) {
        if (v != 0 && (Math.abs(v) >= 100_000 || Math.abs(v) < 0.01)) {
            return String.format(Locale.ROOT, "%.0e", v);
        }
        return String.format(Locale.ROOT, Math.abs(v - Math.rint(v)) < 1e-9 ? "%.0f" : "%.2f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
