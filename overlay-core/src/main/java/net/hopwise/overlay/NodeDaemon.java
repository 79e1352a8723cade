package net.hopwise.overlay;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one overlay node as a process, for deployments without the admin service and for tests that
 * need nodes in separate JVMs.
 *
 * <pre>
 * java -cp overlay-core.jar:... net.hopwise.overlay.NodeDaemon --name b --bind 0.0.0.0:8100 \
 *      --neighbour a@10.0.0.1:8100 --neighbour c@[2001:db8::3]:8100 [--echo-port 7] [--until-stdin-closes]
 * </pre>
 *
 * <p>It prints {@code READY <name> <port>} once its socket is bound. With {@code --echo-port} it
 * sends every message it receives on that port back to its sender, which makes it a probe target.
 */
public final class NodeDaemon {
    private NodeDaemon() {}

    public static void main(String[] args) throws InterruptedException {
        NodeConfig.Builder builder = null;
        String bind = null;
        int echoPort = 0;
        boolean untilStdinCloses = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--name" -> builder = NodeConfig.builder(value(args, ++i, arg));
                case "--bind" -> bind = value(args, ++i, arg);
                case "--neighbour", "--neighbor" -> {
                    requireName(builder);
                    builder.neighbour(NeighbourConfig.parse(value(args, ++i, arg)));
                }
                case "--echo-port" -> echoPort = Integer.parseInt(value(args, ++i, arg));
                case "--until-stdin-closes" -> untilStdinCloses = true;
                default -> usage("unknown option " + arg);
            }
        }
        requireName(builder);
        if (bind != null) {
            NeighbourConfig parsed = NeighbourConfig.parse("x@" + bind);
            builder.bindAddress(bind.startsWith("0.0.0.0:") || bind.startsWith("[::]:")
                    ? new InetSocketAddress(parsed.address().getPort())
                    : parsed.address());
        }
        OverlayNode node = OverlayNode.start(builder.build());
        Runtime.getRuntime().addShutdownHook(new Thread(node::stop, "hopwise-shutdown"));
        if (echoPort > 0) {
            OverlayPort[] port = new OverlayPort[1];
            port[0] = node.openPort(echoPort, m -> port[0].send(m.source(), m.sourcePort(), m.payloadBytes(),
                    node.config().defaultMetric()));
        }
        System.out.println("READY " + node.name() + " " + node.localAddress().getPort());
        System.out.flush();
        if (untilStdinCloses) {
            InputStream in = System.in;
            try {
                while (in.read() >= 0) {
                    // Only the end of the stream matters: the parent process is gone or done.
                }
            } catch (IOException e) {
                // A broken stdin means the parent is gone, same as end of stream.
            }
            node.stop();
        } else {
            new CountDownLatch(1).await();
        }
    }

    private static void requireName(NodeConfig.Builder builder) {
        if (builder == null) {
            usage("--name must come first");
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            usage(option + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println("hopwise node: " + problem);
        System.err.println("usage: --name NAME [--bind HOST:PORT] [--neighbour NAME@HOST:PORT]... "
                + "[--echo-port PORT] [--until-stdin-closes]");
        System.exit(2);
    }
}
