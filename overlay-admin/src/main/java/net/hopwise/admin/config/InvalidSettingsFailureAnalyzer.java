package net.hopwise.admin.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints bad {@code hopwise.*} values as Spring Boot's start-up report: each one, and where to fix it. */
public final class InvalidSettingsFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSettingsException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSettingsException cause) {
        return new FailureAnalysis(
                "The overlay node cannot start with these hopwise settings:\n\n    "
                        + String.join("\n    ", cause.problems()),
                "Correct these values in application.yml, the environment (for example HOPWISE_NODE_HOP_LIMIT)"
                        + " or the command line (for example --hopwise.node.hop-limit=16). Every setting and its"
                        + " default is listed in docs/configuration.md.",
                cause);
    }
}
