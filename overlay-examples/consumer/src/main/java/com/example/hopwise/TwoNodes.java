package com.example.hopwise;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.SendResult;

/**
 * What a user writes first: two nodes on loopback, linked to each other, and one message from a to b,
 * using only the embedding API that README.md shows.
 */
public final class TwoNodes {
    private TwoNodes() {}

    /** Sends {@code text} from a new node a to a new node b and returns what b received, as b saw it. */
    public static String exchange(String text, Duration patience)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build());
             OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build())) {
            a.addNeighbour(NeighbourConfig.parse("b@127.0.0.1:" + b.localAddress().getPort()));
            b.addNeighbour(new NeighbourConfig("a", new InetSocketAddress("127.0.0.1", a.localAddress().getPort())));
            CompletableFuture<String> received = new CompletableFuture<>();
            b.openPort(7, msg -> received.complete(msg.sourceName() + ": "
                    + new String(msg.payloadBytes(), StandardCharsets.UTF_8)));
            OverlayPort port = a.openPort(7, msg -> {});
            long deadline = System.nanoTime() + patience.toNanos();
            // Until the link comes up a has no route (NO_ROUTE), and a datagram may be lost: send again,
            // waiting each time for b to receive, until it has or patience runs out.
            while (true) {
                SendResult result = port.send("b", 7, text.getBytes(StandardCharsets.UTF_8));
                try {
                    return received.get(result == SendResult.ACCEPTED ? 200 : 20, TimeUnit.MILLISECONDS);
                } catch (TimeoutException notYet) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new TimeoutException("b received nothing from a in " + patience + "; last send " + result);
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println(exchange(args.length > 0 ? args[0] : "hello", Duration.ofSeconds(30)));
    }
}
