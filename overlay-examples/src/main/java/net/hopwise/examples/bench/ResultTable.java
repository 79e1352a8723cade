package net.hopwise.examples.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The rows a benchmark run measured, rendered as one Markdown table: scenario, metric, Hopwise
 * value, baseline value, ratio, target, met.
 */
public final class ResultTable {
    /** The table's header, also what readers of a rendered table look for. */
    public static final String HEADER = "| scenario | metric | Hopwise | baseline | ratio | target | met? |";

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * One measured quantity.
     *
     * @param scenario what ran, and against which baseline
     * @param metric what was measured, with its unit
     * @param hopwise Hopwise's value
     * @param baseline the baseline's value, when there is one
     * @param target what the ratio Hopwise/baseline must satisfy, when there is a target
     * @param comparable whether the ratio Hopwise/baseline means something (not for loss rates)
     */
    public record Row(String scenario, String metric, double hopwise, OptionalDouble baseline, Target target,
            boolean comparable) {
        public OptionalDouble ratio() {
            if (!comparable || baseline.isEmpty() || baseline.getAsDouble() == 0) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(hopwise / baseline.getAsDouble());
        }

        /** Empty when the row has no target or no ratio to judge. */
        public java.util.Optional<Boolean> met() {
            OptionalDouble r = ratio();
            if (target == null || r.isEmpty()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(target.isMetBy(r.getAsDouble()));
        }
    }

    /** A bound on the ratio Hopwise/baseline. */
    public record Target(boolean atMost, double ratio) {
        public static Target atMost(double ratio) {
            return new Target(true, ratio);
        }

        public static Target atLeast(double ratio) {
            return new Target(false, ratio);
        }

        boolean isMetBy(double value) {
            return atMost ? value <= ratio : value >= ratio;
        }

        @Override
        public String toString() {
            return (atMost ? "≤ " : "≥ ") + String.format(Locale.ROOT, "%.2fx", ratio);
        }
    }

    public void add(String scenario, String metric, double hopwise, double baseline, Target target) {
        rows.add(new Row(scenario, metric, hopwise, OptionalDouble.of(baseline), target, true));
    }

    /** A row with a baseline value beside it whose ratio means nothing (e.g. two loss rates). */
    public void addSideBySide(String scenario, String metric, double hopwise, double baseline) {
        rows.add(new Row(scenario, metric, hopwise, OptionalDouble.of(baseline), null, false));
    }

    public void add(String scenario, String metric, double hopwise, double baseline) {
        add(scenario, metric, hopwise, baseline, null);
    }

    /** A row without a baseline: informational. */
    public void add(String scenario, String metric, double hopwise) {
        rows.add(new Row(scenario, metric, hopwise, OptionalDouble.empty(), null, false));
    }

    /** A line under the table: setup details and observations that explain the numbers. */
    public void note(String text) {
        notes.add(text);
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** True when no row with a target missed it. */
    public boolean allTargetsMet() {
        return rows.stream().allMatch(r -> r.met().orElse(true));
    }

    /** The table in Markdown, then its notes as a list. */
    public String toMarkdown() {
        StringBuilder sb = new StringBuilder();
        sb.append(HEADER).append('\n');
        sb.append("|---|---|---:|---:|---:|---|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.scenario())
                    .append(" | ").append(r.metric())
                    .append(" | ").append(number(r.hopwise()))
                    .append(" | ").append(r.baseline().isPresent() ? number(r.baseline().getAsDouble()) : "—")
                    .append(" | ").append(r.ratio().isPresent()
                            ? String.format(Locale.ROOT, "%.2fx", r.ratio().getAsDouble()) : "—")
                    .append(" | ").append(r.target() != null ? r.target().toString() : "—")
                    .append(" | ").append(r.met().map(m -> m ? "yes" : "**no**").orElse("—"))
                    .append(" |\n");
        }
        if (!notes.isEmpty()) {
            sb.append('\n');
            for (String n : notes) {
                sb.append("- ").append(n).append('\n');
            }
        }
        return sb.toString();
    }

    /** Three significant digits at least, never scientific notation, no grouping separators. */
    static String number(double v) {
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
