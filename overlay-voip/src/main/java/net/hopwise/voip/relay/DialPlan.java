package net.hopwise.voip.relay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which overlay node serves a Request-URI: rules by domain (the URI's host, or host:port) and by
 * number or user prefix (the longest prefix wins). A domain rule is more specific than a prefix
 * rule, as in an operator's dial plan, where the domain names the site and prefixes are the
 * fallback for numbers. A rule may name this relay's own node: the call is then delivered to a
 * local phone.
 */
public final class DialPlan {
    /** One rule; exactly one of domain and prefix is set. */
    public record Rule(String domain, String prefix, String node) {
        public Rule {
            Objects.requireNonNull(node, "node");
            if ((domain == null) == (prefix == null)) {
                throw new IllegalArgumentException("a dial-plan rule has a domain or a prefix, not both or none");
            }
        }

        /**
         * Reads {@code domain:example.org=b}, {@code prefix:+3375=b} (number or user prefix) or, for
         * short, {@code example.org=b} (a domain) and {@code 4175=b} / {@code bob=b} as prefixes when
         * they hold no dot.
         */
        public static Rule parse(String text) {
            int eq = text.lastIndexOf('=');
            if (eq <= 0 || eq == text.length() - 1) {
                throw new IllegalArgumentException("a dial-plan rule reads match=node, got '" + text + "'");
            }
            String match = text.substring(0, eq).trim();
            String node = text.substring(eq + 1).trim();
            if (match.startsWith("domain:")) {
                return new Rule(match.substring(7).toLowerCase(Locale.ROOT), null, node);
            }
            if (match.startsWith("prefix:")) {
                return new Rule(null, match.substring(7), node);
            }
            return match.indexOf('.') >= 0 || match.indexOf(':') >= 0
                    ? new Rule(match.toLowerCase(Locale.ROOT), null, node)
                    : new Rule(null, match, node);
        }
    }

    private final List<Rule> rules;

    public DialPlan(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public static DialPlan parse(List<String> rules) {
        List<Rule> parsed = new ArrayList<>();
        for (String r : rules) {
            parsed.add(Rule.parse(r));
        }
        return new DialPlan(parsed);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** The node serving {@code uri}, or empty when no rule matches. */
    public Optional<String> nodeFor(SipUri uri) {
        if (uri == null) {
            return Optional.empty();
        }
        String hostPort = uri.port() < 0 ? uri.host() : uri.host() + ":" + uri.port();
        for (Rule r : rules) {
            if (r.domain() != null && (r.domain().equals(hostPort) || r.domain().equals(uri.host()))) {
                return Optional.of(r.node());
            }
        }
        Rule best = null;
        String user = uri.user();
        if (user != null) {
            for (Rule r : rules) {
                if (r.prefix() != null && user.startsWith(r.prefix())
                        && (best == null || r.prefix().length() > best.prefix().length())) {
                    best = r;
                }
            }
        }
        return Optional.ofNullable(best).map(Rule::node);
    }
}
