package net.hopwise.overlay.daemon;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.reload.SecurityFiles;

/**
 * Parses the daemon's command line into {@link DaemonOptions}. Every mistake becomes a
 * {@link SetupException} whose message names the option and the value at fault, in one line.
 */
public final class DaemonArguments {
    /** What {@code --help} prints. */
    public static final String USAGE = """
            usage: java -jar overlay-core-<version>-daemon.jar --name NAME [options]
              --name NAME                 this node's name (required): 1-64 of A-Z a-z 0-9 . _ -
              --bind [HOST:]PORT          UDP address to listen on (default 0.0.0.0:8100; port 0 picks a free one)
              --neighbour NAME@HOST:PORT  an overlay neighbour, repeatable; IPv6 as NAME@[ADDR]:PORT (or --neighbor)
              --metrics [HOST:]PORT       serve Prometheus metrics at http://HOST:PORT/metrics (HOST defaults to 0.0.0.0)
              --stats-interval DURATION   how often to log link and drop statistics: 30s, 5m, 1h, 0 for never (default 60s)
              --echo-port PORT            send every message received on this overlay port back to its sender
              --until-stdin-closes        stop when standard input ends (for a parent process that owns the node)
              --trace NODE                trace the route to NODE once, print it and exit: 0 when NODE answered, 1 if not
              --metric METRIC             the metric whose route --trace follows: hops, latency, loss, expected_latency
                                          (any case; default the node's default metric)
              --trace-wait DURATION       how long --trace waits for a route to NODE and tries again while NODE does not
                                          answer: 500ms, 15s, 1m, 0 for a single try (default 15s)
              --key FILE                  this node's private key (keytool genkey node FILE): links authenticated and encrypted
              --trusted-keys FILE         admit the nodes this file lists (name ed25519:KEY per line), this node included
              --authority ed25519:KEY     admit nodes certified by this authority (repeatable), with --certificate
              --certificate FILE          this node's certificate from the authority (keytool cert sign)
              --cipher CIPHER             the links' cipher: aes-gcm or chacha-poly (default: the security module's)
              --revocations FILE          an authority-signed revocation list (keytool revoke) to apply and flood, with --authority
              --reload-interval DURATION  how often to re-read the certificate, trusted-keys and revocation files when they
                                          change: 10s, 1m, 0 for only on SIGHUP (default 10s); SIGHUP re-reads them at once
              --insecure                  run without keys: anyone who reaches the UDP port can join, inject and read
              --help                      print this help and exit
            java -jar overlay-core-<version>-daemon.jar keytool ...  makes keys and certificates (keytool --help).
            A node needs --key with --trusted-keys or --authority and --certificate, or --insecure.
            Events (links up and down, reroutes, neighbour address changes) and statistics are logged to stderr;
            stdout carries only the line READY <name> <udp port> once the node is bound, or with --trace the trace.""";

    private static final Pattern PORT = Pattern.compile("\\d{1,5}");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");
    private static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    private static final Duration MAX_INTERVAL = Duration.ofDays(1);
    /** A wait longer than this is a mistake in the unit, not a route that may still come. */
    private static final Duration MAX_TRACE_WAIT = Duration.ofHours(1);

    private DaemonArguments() {}

    /** The options, or null when {@code --help} asked for the usage instead. */
    public static DaemonOptions parse(List<String> args) throws SetupException {
        String name = null;
        InetSocketAddress bind = null;
        InetSocketAddress metrics = null;
        Duration interval = null;
        Integer echoPort = null;
        boolean untilStdinCloses = false;
        String trace = null;
        RoutingMetric metric = null;
        Duration traceWait = null;
        List<NeighbourConfig> neighbours = new ArrayList<>();
        java.nio.file.Path key = null;
        java.nio.file.Path trustedKeys = null;
        java.nio.file.Path certificate = null;
        List<String> authorities = new ArrayList<>();
        net.hopwise.overlay.security.CipherSuite cipher = null;
        boolean insecure = false;
        java.nio.file.Path revocations = null;
        Duration reloadInterval = null;
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            switch (option) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--name" -> {
                    once(option, name);
                    name = nodeName(option, value(args, ++i, option));
                }
                case "--bind" -> {
                    once(option, bind);
                    String v = value(args, ++i, option);
                    bind = address(option + " '" + v + "'", v, 0);
                }
                case "--neighbour", "--neighbor" -> neighbours.add(neighbour(option, value(args, ++i, option)));
                case "--metrics" -> {
                    once(option, metrics);
                    String v = value(args, ++i, option);
                    metrics = address(option + " '" + v + "'", v, 0);
                }
                case "--stats-interval" -> {
                    once(option, interval);
                    interval = interval(option, value(args, ++i, option));
                }
                case "--echo-port" -> {
                    once(option, echoPort);
                    String v = value(args, ++i, option);
                    echoPort = port(option + " '" + v + "'", v, 1);
                }
                case "--until-stdin-closes" -> untilStdinCloses = true;
                case "--trace" -> {
                    once(option, trace);
                    trace = nodeName(option, value(args, ++i, option));
                }
                case "--metric" -> {
                    once(option, metric);
                    metric = metric(option, value(args, ++i, option));
                }
                case "--trace-wait" -> {
                    once(option, traceWait);
                    traceWait = traceWait(option, value(args, ++i, option));
                }
                case "--key" -> {
                    once(option, key);
                    key = java.nio.file.Path.of(value(args, ++i, option));
                }
                case "--trusted-keys" -> {
                    once(option, trustedKeys);
                    trustedKeys = java.nio.file.Path.of(value(args, ++i, option));
                }
                case "--certificate" -> {
                    once(option, certificate);
                    certificate = java.nio.file.Path.of(value(args, ++i, option));
                }
                case "--authority" -> authorities.add(value(args, ++i, option));
                case "--cipher" -> {
                    once(option, cipher);
                    cipher = cipher(option, value(args, ++i, option));
                }
                case "--insecure" -> insecure = true;
                case "--revocations" -> {
                    once(option, revocations);
                    revocations = java.nio.file.Path.of(value(args, ++i, option));
                }
                case "--reload-interval" -> {
                    once(option, reloadInterval);
                    reloadInterval = interval(option, value(args, ++i, option));
                }
                default -> throw new SetupException(option.startsWith("-")
                        ? "unknown option " + option
                        : "unexpected argument '" + option + "' (options start with --)");
            }
        }
        if (name == null) {
            throw new SetupException("--name is required");
        }
        if (trace == null && (metric != null || traceWait != null)) {
            throw new SetupException((metric != null ? "--metric" : "--trace-wait") + " only applies to --trace NODE");
        }
        if (name.equals(trace)) {
            throw new SetupException("--trace " + trace + ": a node does not trace itself");
        }
        net.hopwise.overlay.security.SecurityConfig security = security(name, key, trustedKeys, authorities,
                certificate, cipher, insecure);
        SecurityFiles files = null;
        if (security == null) {
            if (revocations != null || reloadInterval != null) {
                throw new SetupException((revocations != null ? "--revocations" : "--reload-interval")
                        + " applies to a node with keys, not to one run --insecure");
            }
        } else {
            files = securityFiles(key, trustedKeys, authorities, certificate, revocations, reloadInterval);
        }
        DaemonOptions options = new DaemonOptions(name,
                bind != null ? bind : new InetSocketAddress(NodeConfig.DEFAULT_PORT), neighbours, metrics,
                interval != null ? interval : DaemonOptions.DEFAULT_STATISTICS_INTERVAL,
                echoPort != null ? echoPort : 0, untilStdinCloses, trace == null ? null
                        : new DaemonOptions.Trace(trace, metric, traceWait != null ? traceWait
                                : DaemonOptions.DEFAULT_TRACE_WAIT), security, files);
        try {
            // The node's own checks (a neighbour named twice, the node as its own neighbour) now, not at start.
            options.nodeConfig(null);
        } catch (IllegalArgumentException e) {
            throw new SetupException(e.getMessage());
        }
        return options;
    }

    /** Link security from the key options, or null for links the operator chose to leave unauthenticated. */
    private static net.hopwise.overlay.security.SecurityConfig security(String name, java.nio.file.Path key,
            java.nio.file.Path trustedKeys, List<String> authorities, java.nio.file.Path certificate,
            net.hopwise.overlay.security.CipherSuite cipher, boolean insecure) throws SetupException {
        try {
            return net.hopwise.overlay.security.SecuritySetup.fromOptions(name, key, trustedKeys, authorities,
                    certificate, cipher, insecure);
        } catch (IllegalArgumentException e) {
            throw new SetupException(e.getMessage());
        }
    }

    /** The files to re-read, each checked as a later reload would check it: a refusal now, not at the first check. */
    private static SecurityFiles securityFiles(java.nio.file.Path key, java.nio.file.Path trustedKeys,
            List<String> authorities, java.nio.file.Path certificate, java.nio.file.Path revocations,
            Duration reloadInterval) throws SetupException {
        SecurityFiles files;
        try {
            files = new SecurityFiles(key, trustedKeys, authorities, certificate, revocations,
                    reloadInterval != null ? reloadInterval : SecurityFiles.DEFAULT_CHECK_INTERVAL);
        } catch (IllegalArgumentException e) {
            throw new SetupException("--revocations " + revocations + ": " + e.getMessage());
        }
        try {
            files.checkRevocations();
        } catch (IllegalArgumentException e) {
            throw new SetupException("--revocations " + revocations + ": " + e.getMessage());
        }
        return files;
    }

    private static net.hopwise.overlay.security.CipherSuite cipher(String option, String text) throws SetupException {
        try {
            return net.hopwise.overlay.security.SecuritySetup.cipher(text);
        } catch (IllegalArgumentException e) {
            throw new SetupException(option + " " + e.getMessage());
        }
    }

    private static void once(String option, Object previous) throws SetupException {
        if (previous != null) {
            throw new SetupException(option + " is given twice");
        }
    }

    private static String value(List<String> args, int i, String option) throws SetupException {
        if (i >= args.size() || args.get(i).startsWith("--")) {
            throw new SetupException(option + " needs a value");
        }
        return args.get(i);
    }

    private static String nodeName(String option, String name) throws SetupException {
        try {
            return NodeId.requireValidName(name);
        } catch (IllegalArgumentException e) {
            throw new SetupException(option + ": " + e.getMessage());
        }
    }

    private static NeighbourConfig neighbour(String option, String spec) throws SetupException {
        int at = spec.indexOf('@');
        if (at <= 0 || at == spec.length() - 1) {
            throw new SetupException(option + " '" + spec + "' is not of the form NAME@HOST:PORT");
        }
        String name = spec.substring(0, at);
        try {
            NodeId.requireValidName(name);
        } catch (IllegalArgumentException e) {
            throw new SetupException(option + " '" + spec + "': " + e.getMessage());
        }
        String where = spec.substring(at + 1);
        if (PORT.matcher(where).matches()) {
            throw new SetupException(option + " '" + spec + "' has no host (NAME@HOST:PORT)");
        }
        return new NeighbourConfig(name, address(option + " '" + spec + "'", where, 1));
    }

    /**
     * {@code HOST:PORT}, {@code [IPV6]:PORT} or a bare {@code PORT} (all interfaces); 0.0.0.0, [::]
     * and * are all interfaces too, IPv4 and IPv6 alike, as the node bound them before.
     *
     * @param context the option and its whole value, which every message starts with
     */
    private static InetSocketAddress address(String context, String spec, int minPort) throws SetupException {
        if (PORT.matcher(spec).matches()) {
            return new InetSocketAddress(port(context, spec, minPort));
        }
        int colon = spec.lastIndexOf(':');
        if (colon < 0 || colon == spec.length() - 1) {
            throw new SetupException(context + " has no port (HOST:PORT)");
        }
        String host = spec.substring(0, colon);
        String portText = spec.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":") || host.contains("[") || host.contains("]")) {
            throw new SetupException(context + ": write an IPv6 address in brackets, as [::1]:8100");
        }
        if (host.isEmpty()) {
            throw new SetupException(context + " has an empty host");
        }
        int port = port(context, portText, minPort);
        if (host.equals("*") || host.equals("0.0.0.0") || host.equals("::")) {
            return new InetSocketAddress(port);
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new SetupException(context + ": host " + host + " does not resolve");
        }
        return address;
    }

    private static int port(String context, String text, int min) throws SetupException {
        if (!PORT.matcher(text).matches()) {
            throw new SetupException(context + ": port '" + text + "' is not a number");
        }
        int port = Integer.parseInt(text);
        if (port < min || port > 65535) {
            throw new SetupException(context + ": port " + port + " is outside " + min + "-65535");
        }
        return port;
    }

    private static RoutingMetric metric(String option, String text) throws SetupException {
        String upper = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (RoutingMetric m : RoutingMetric.values()) {
            if (m.name().equals(upper)) {
                return m;
            }
        }
        throw new SetupException(option + " '" + text + "' is not one of "
                + String.join(", ", Arrays.stream(RoutingMetric.values()).map(m -> m.name().toLowerCase(Locale.ROOT))
                        .toList()));
    }

    private static Duration traceWait(String option, String text) throws SetupException {
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Duration d = duration(option, text);
        if (d.compareTo(MAX_TRACE_WAIT) > 0) {
            throw new SetupException(option + " '" + text + "' is longer than 1h");
        }
        return d;
    }

    private static Duration interval(String option, String text) throws SetupException {
        if (text.equals("0") || text.equals("off") || text.equals("never")) {
            return Duration.ZERO;
        }
        Duration d = duration(option, text);
        if (d.isZero()) {
            return Duration.ZERO;
        }
        if (d.compareTo(MIN_INTERVAL) < 0 || d.compareTo(MAX_INTERVAL) > 0) {
            throw new SetupException(option + " '" + text + "' is outside 1s-24h (0 turns it off)");
        }
        return d;
    }

    /** {@code 1500ms}, {@code 30s} (or {@code 30}), {@code 5m}, {@code 1h}. */
    private static Duration duration(String option, String text) throws SetupException {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new SetupException(option + " '" + text + "' is not a duration such as 30s, 5m or 1h");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
