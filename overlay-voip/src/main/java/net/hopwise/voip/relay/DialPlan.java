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
 * local phone. A rule may name several nodes ({@code bob=b,c}): the call is forked to each of them
 * in parallel (RFC 3261 section 16.7), as to a user reachable at several sites.
 */
public final class DialPlan {
    /** One rule; exactly one of domain and prefix is set; {@code nodes} in the order written, at least one. */
    public record Rule(String domain, String prefix, List<String> nodes) {
        public Rule {
            Objects.requireNonNull(nodes, "nodes");
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty() || nodes.stream().anyMatch(String::isEmpty)) {
                throw new IllegalArgumentException("a dial-plan rule names at least one node, got " + nodes);
            }
            if ((domain == null) == (prefix == null)) {
                throw new IllegalArgumentException("a dial-plan rule has a domain or a prefix, not both or none");
            }
        }

        public Rule(String domain, String prefix, String node) {
            this(domain, prefix, List.of(Objects.requireNonNull(node, "node")));
        }

        /** The first node named: the only one of a rule that does not fork. */
        public String node() {
            return nodes.get(0);
        }

        /**
         * Reads {@code domain:example.org=b}, {@code prefix:+3375=b} (number or user prefix) or, for
         * short, {@code example.org=b} (a domain) and {@code 4175=b} / {@code bob=b} as prefixes when
         * they hold no dot. Several nodes separated by commas ({@code bob=b,c}) fork the call to each.
         */
        public static Rule parse(String text) {
            int eq = text.lastIndexOf('=');
            if (eq <= 0 || eq == text.length() - 1) {
                throw new IllegalArgumentException("a dial-plan rule reads match=node, got '" + text + "'");
            }
            String match = text.substring(0, eq).trim();
            List<String> node = new ArrayList<>();
            for (String n : text.substring(eq + 1).split(",", -1)) {
                if (!node.contains(n.trim())) {
                    node.add(n.trim());
                }
            }
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

    /** The (first) node serving {@code uri}, or empty when no rule matches. */
    public Optional<String> nodeFor(SipUri uri) {
        return Optional.ofNullable(ruleFor(uri)).map(Rule::node);
    }

    /** Every node the matching rule names, in its order; empty when no rule matches. */
    public List<String> nodesFor(SipUri uri) {
        Rule r = ruleFor(uri);
        return r == null ? List.of() : r.nodes();
    }

    private Rule ruleFor(SipUri uri) {
        if (uri == null) {
            return null;
        }
        String hostPort = uri.port() < 0 ? uri.host() : uri.host() + ":" + uri.port();
        for (Rule r : rules) {
            if (r.domain() != null && (r.domain().equals(hostPort) || r.domain().equals(uri.host()))) {
                return r;
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
        return best;
    }
}
