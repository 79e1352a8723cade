package net.hopwise.admin.config;

import java.util.List;

/** Thrown at start-up when {@code hopwise.*} holds values the overlay cannot run with. */
public final class InvalidSettingsException extends RuntimeException {
    private final List<String> problems;

    public InvalidSettingsException(List<String> problems) {
        super("invalid hopwise settings:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per bad value: the property, then what is wrong with it. */
    public List<String> problems() {
        return problems;
    }
}
