package net.hopwise.examples.sim;

import java.util.ArrayList;
import java.util.List;

/** Rows of named columns, printed as Markdown for people and as CSV for tools. */
final class ResultTable {
    private final List<String> columns;
    private final List<List<String>> rows = new ArrayList<>();

    ResultTable(String... columns) {
        this.columns = List.of(columns);
    }

    void add(Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException("expected " + columns.size() + " cells, got " + cells.length);
        }
        List<String> row = new ArrayList<>();
        for (Object c : cells) {
            row.add(String.valueOf(c));
        }
        rows.add(row);
    }

    List<List<String>> rows() {
        return rows;
    }

    String toMarkdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", columns)).append(" |\n");
        sb.append("|").append("---|".repeat(columns.size())).append('\n');
        for (List<String> row : rows) {
            sb.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return sb.toString();
    }

    String toCsv() {
        StringBuilder sb = new StringBuilder();
        sb.append(csvLine(columns));
        for (List<String> row : rows) {
            sb.append(csvLine(row));
        }
        return sb.toString();
    }

    private static String csvLine(List<String> cells) {
        List<String> quoted = new ArrayList<>();
        for (String c : cells) {
            quoted.add(c.contains(",") || c.contains("\"") ? "\"" + c.replace("\"", "\"\"") + "\"" : c);
        }
        return String.join(",", quoted) + "\n";
    }
}
