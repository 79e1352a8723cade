package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;

/**
 * Runs one overlay node with a SIP relay beside it, from the command line: the way to put a site's
 * phones on the overlay until the admin service starts relays from its configuration.
 *
 * <pre>
 * java -cp ... net.hopwise.voip.relay.RelayLauncher --name paris --bind 0.0.0.0:8100 \
 *     --neighbour lyon@203.0.113.7:8100 --sip 192.0.2.10:5060 --route example.net=lyon
 * </pre>
 *
 * It prints {@code READY <node> <overlay port> <sip port>} once its sockets are bound and its node
 * has routes to every configured neighbour (under the metrics of both media and signalling), so that
 * a call placed after READY finds its way; until then it serves its own phones and prints {@code
 * WAITING for routes to ...}. With {@code --ready-timeout SECONDS} it gives up after that long, prints
 * {@code NOT READY ...} and ends with code 1. It then runs until stopped (or until standard input
 * ends, with {@code --until-stdin-closes}, and then prints the relay's state and counters). With
 * {@code --call-records FILE} each ended call's record is appended to FILE as a line of JSON.
 */
public final class RelayLauncher {
    private RelayLauncher() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.in));
    }

    /** Runs the relay; returns the exit code (2 for a bad argument). */
    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("relay: " + e.getMessage());
            return 2;
        }
        if (o == null) {
            out.println("options: --name NAME [--bind HOST:PORT] [--neighbour NAME@HOST:PORT]... [--sip HOST:PORT]"
                    + " [--advertise HOST] [--media-address IP] [--media-ports MIN-MAX] [--route RULE]..."
                    + " [--linger DURATION] [--max-calls N] [--retry-after SECONDS] [--request-rate N] [--media-thread auto|on|off]"
                    + " [--media-thread-calls N] [--call-records FILE] [--access-delay MS]"
                    + " [--media-deadline MS] [--media-deadline-packets N]"
                    + " [--ready-timeout SECONDS]"
                    + " [--until-stdin-closes]"
                    + " (--key FILE (--trusted-keys FILE | --authority ed25519:KEY --certificate FILE) [--cipher C]"
                    + " | --insecure): the node's links, as the node daemon's options");
            return 0;
        }
        NodeConfig nodeConfig;
        try {
            // Registrations are published across the overlay: other sites' relays find this site's phones.
            NodeConfig.Builder node = NodeConfig.builder(o.name).bindAddress(o.bind).module(new RegistrationDirectory());
            for (String n : o.neighbours) {
                node.neighbour(NeighbourConfig.parse(n));
            }
            net.hopwise.overlay.security.SecurityConfig security = net.hopwise.overlay.security.SecuritySetup
                    .fromOptions(o.name, o.key, o.trustedKeys, o.authorities, o.certificate,
                            o.cipher == null ? null : net.hopwise.overlay.security.SecuritySetup.cipher(o.cipher),
                            o.insecure);
            if (security != null) {
                node.module(new net.hopwise.overlay.security.SecurityModule(security));
            } else {
                err.println("relay: WARNING links are NOT authenticated or encrypted (--insecure): any host that"
                        + " reaches the overlay port can join, inject calls and read their media");
            }
            nodeConfig = node.build();
        } catch (IllegalArgumentException e) {
            err.println("relay: " + e.getMessage());
            return 2;
        }
        RelayConfig config;
        try {
            RelayConfig.Builder relay = RelayConfig.builder().sipAddress(o.sip).advertisedHost(o.advertise)
                    .mediaAddress(o.mediaAddress);
            if (o.mediaPorts != null) {
                relay.mediaPorts(o.mediaPorts[0], o.mediaPorts[1]);
            }
            if (o.linger != null) {
                relay.linger(o.linger);
            }
            if (o.maxCalls != null) {
                relay.maxCalls(o.maxCalls);
            }
            if (o.requestRate != null) {
                relay.requestRateLimit(RelayConfig.RequestRateLimit.perTwoSeconds(o.requestRate));
            }
            if (o.retryAfter != null) {
                relay.retryAfter(o.retryAfter);
            }
            if (o.mediaThread != null) {
                relay.mediaThread(o.mediaThread);
            }
            if (o.mediaThreadCalls != null) {
                relay.mediaThreadCalls(o.mediaThreadCalls);
            }
            if (o.accessDelay != null) {
                relay.accessDelay(o.accessDelay);
            }
            if (o.mediaDeadline != null) {
                relay.mediaDeadline(o.mediaDeadline);
            }
            if (o.mediaDeadlinePackets != null) {
                relay.mediaDeadlinePackets(o.mediaDeadlinePackets);
            }
            relay.callRecords(o.callRecords);
            o.routes.forEach(relay::route);
            config = relay.build();
        } catch (IllegalArgumentException e) {
            err.println("relay: " + e.getMessage());
            return 2;
        }
        List<String> peers = nodeConfig.neighbours().stream().map(NeighbourConfig::name).toList();
        try (OverlayNode overlay = OverlayNode.start(nodeConfig);
                SipRelay sip = SipRelay.start(overlay, config)) {
            java.util.Set<String> missing = PeerRoutes.missing(overlay, peers);
            if (!missing.isEmpty() && !o.readyTimeout.isZero()) {
                out.println("WAITING for routes to " + String.join(", ", missing));
                out.flush();
                missing = PeerRoutes.await(overlay, peers, o.readyTimeout);
            }
            if (!missing.isEmpty()) {
                out.println("NOT READY " + overlay.name() + ": no route to " + String.join(", ", missing) + " after "
                        + o.readyTimeout.toSeconds() + " s");
                out.flush();
                return 1;
            }
            out.println("READY " + overlay.name() + " " + overlay.localAddress().getPort() + " "
                    + sip.sipAddress().getPort());
            out.flush();
            if (o.untilStdinCloses) {
                while (in.read() >= 0) {
                    // Only the end of input matters.
                }
                // What a parent (a test, a load run) checks: nothing left over, and why anything was dropped.
                out.println("STATE " + sip.state());
                out.println("COUNTERS " + sip.counters());
                out.flush();
            } else {
                new CountDownLatch(1).await();
            }
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
            err.println("relay: " + e.getMessage());
            return 2;
        }
        return 0;
    }

    /** The command line, checked before anything starts. */
    static final class Options {
        String name;
        InetSocketAddress bind = new InetSocketAddress("0.0.0.0", 8100);
        final List<String> neighbours = new ArrayList<>();
        InetSocketAddress sip = RelayConfig.DEFAULT_SIP_ADDRESS;
        String advertise;
        String mediaAddress;
        int[] mediaPorts;
        Duration linger;
        Integer maxCalls;
        Duration retryAfter;
        Integer requestRate;
        MediaThread mediaThread;
        Integer mediaThreadCalls;
        java.nio.file.Path callRecords;
        Duration accessDelay;
        Duration mediaDeadline;
        Integer mediaDeadlinePackets;
        /** Without the option: as long as it takes (a peer down at start comes up later). */
        Duration readyTimeout = Duration.ofDays(36500);
        final List<String> routes = new ArrayList<>();
        boolean untilStdinCloses;
        java.nio.file.Path key;
        java.nio.file.Path trustedKeys;
        java.nio.file.Path certificate;
        final List<String> authorities = new ArrayList<>();
        String cipher;
        boolean insecure;

        /** The options, or null for --help. */
        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help")) {
                    return null;
                }
                if (a.equals("--until-stdin-closes")) {
                    o.untilStdinCloses = true;
                    continue;
                }
                if (a.equals("--insecure")) {
                    o.insecure = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--name" -> o.name = v;
                    case "--bind" -> o.bind = address(v);
                    case "--neighbour", "--neighbor" -> o.neighbours.add(v);
                    case "--sip" -> o.sip = address(v);
                    case "--advertise" -> o.advertise = v;
                    case "--media-address" -> o.mediaAddress = v;
                    case "--media-ports" -> {
                        String[] p = v.split("-");
                        if (p.length != 2) {
                            throw new IllegalArgumentException("--media-ports reads MIN-MAX, got " + v);
                        }
                        o.mediaPorts = new int[] {number(p[0]), number(p[1])};
                    }
                    case "--route" -> o.routes.add(v);
                    case "--linger" -> o.linger = Duration.ofSeconds(number(v));
                    case "--max-calls" -> o.maxCalls = number(v);
                    case "--retry-after" -> o.retryAfter = Duration.ofSeconds(number(v));
                    case "--request-rate" -> o.requestRate = number(v);
                    case "--media-thread" -> o.mediaThread = MediaThread.parse(v);
                    case "--media-thread-calls" -> o.mediaThreadCalls = number(v);
                    case "--call-records" -> o.callRecords = path(v);
                    case "--access-delay" -> o.accessDelay = Duration.ofMillis(number(v));
                    case "--media-deadline" -> o.mediaDeadline = Duration.ofMillis(number(v));
                    case "--media-deadline-packets" -> o.mediaDeadlinePackets = number(v);
                    case "--ready-timeout" -> o.readyTimeout = Duration.ofSeconds(number(v));
                    case "--key" -> o.key = java.nio.file.Path.of(v);
                    case "--trusted-keys" -> o.trustedKeys = java.nio.file.Path.of(v);
                    case "--authority" -> o.authorities.add(v);
                    case "--certificate" -> o.certificate = java.nio.file.Path.of(v);
                    case "--cipher" -> o.cipher = v;
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (o.name == null) {
                throw new IllegalArgumentException("--name is required");
            }
            return o;
        }

        private static InetSocketAddress address(String v) {
            int colon = v.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("an address reads HOST:PORT, got " + v);
            }
            String host = v.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (Calls.literal(host) == null) {
                throw new IllegalArgumentException("an address takes an IP literal, got " + host);
            }
            return new InetSocketAddress(Calls.literal(host), number(v.substring(colon + 1)));
        }

        private static java.nio.file.Path path(String v) {
            try {
                return java.nio.file.Path.of(v);
            } catch (java.nio.file.InvalidPathException e) {
                throw new IllegalArgumentException("not a file name: " + v);
            }
        }

        private static int number(String v) {
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: " + v);
            }
        }
    }
}
