package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The paper's chain of five links (six nodes a-f) on loopback UDP, with the impairment handler
 * losing 1% of the packets on the middle link c-d in both directions: a reliable session from a to
 * f delivers everything, in order, and the loss is repaired on that link.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReliableSessionUdpTest {
    private static final List<String> NAMES = List.of("a", "b", "c", "d", "e", "f");

    private NodeRuntime runtime;
    private final Map<String, OverlayNode> nodes = new LinkedHashMap<>();

    @BeforeAll
    void startChain() {
        runtime = NodeRuntime.create(2);
        for (String name : NAMES) {
            nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                    .defaultMetric(RoutingMetric.HOPS).impairmentSeed(name.hashCode()).build(), runtime));
        }
        for (int i = 0; i + 1 < NAMES.size(); i++) {
            OverlayNode x = nodes.get(NAMES.get(i));
            OverlayNode y = nodes.get(NAMES.get(i + 1));
            x.addNeighbour(new NeighbourConfig(y.name(), y.localAddress()));
            y.addNeighbour(new NeighbourConfig(x.name(), x.localAddress()));
        }
        ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(0.01).build();
        nodes.get("c").impair("d", Direction.OUTBOUND, lossy);
        nodes.get("d").impair("c", Direction.OUTBOUND, lossy);
        Eventually.await("a reaches f", () -> nodes.get("a").reachableNodes(RoutingMetric.HOPS).contains("f")
                && nodes.get("f").reachableNodes(RoutingMetric.HOPS).contains("a"));
    }

    @AfterAll
    void stop() {
        nodes.values().forEach(OverlayNode::stop);
        runtime.close();
        LeakDetection.assertNoLeaks();
    }

    @Test
    void deliversEverythingInOrderOverTheLossyChain() {
        int count = 3000;
        ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
        ReliableSession in = nodes.get("f").openSession(7, "a", 7, m -> received.add(m.payloadBytes()));
        ReliableSession out = nodes.get("a").openSession(7, "f", 7, m -> {});
        List<byte[]> sent = new ArrayList<>();
        Random random = new Random(42);
        int backPressured = 0;
        for (int i = 0; i < count; i++) {
            byte[] m = new byte[1000];
            random.nextBytes(m);
            ByteBuffer.wrap(m).putInt(i);
            SendResult r;
            while ((r = out.send(m)) == SendResult.BACK_PRESSURED) {
                backPressured++;
                Eventually.await("session writable", out::isWritable);
            }
            assertThat(r).isEqualTo(SendResult.ACCEPTED);
            sent.add(m);
        }
        Eventually.await("all " + count + " messages at f", () -> received.size() >= count);
        List<byte[]> got = new ArrayList<>(received);
        assertThat(got).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(Arrays.equals(got.get(i), sent.get(i))).as("message %d", i).isTrue();
        }
        ReliableLinkStatistics cd = nodes.get("c").neighbours().stream().filter(n -> n.name().equals("d")).findFirst()
                .orElseThrow().reliableStatistics();
        assertThat(cd.retransmissions()).as("losses repaired on c-d").isPositive();
        assertThat(nodes.get("a").meterRegistry().find("hopwise.link.retransmissions").meters()).isNotEmpty();
        assertThat(nodes.get("a").meterRegistry().find("hopwise.session.messages").meters()).isNotEmpty();
        in.close();
        out.close();
    }

    @Test
    void streamsCarryBytesWithBackPressureOnBothEnds() throws Exception {
        ReliableSession in = nodes.get("f").openSession(8, "a", 8, null);
        ReliableSession out = nodes.get("a").openSession(8, "f", 8, m -> {});
        byte[] data = new byte[2 * 1024 * 1024];
        new Random(7).nextBytes(data);
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream s = in.inputStream()) {
                return s.readNBytes(data.length);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
        OutputStream s = out.outputStream();
        for (int at = 0; at < data.length; at += 10_000) {
            s.write(data, at, Math.min(10_000, data.length - at));
        }
        assertThat(read.get(60, TimeUnit.SECONDS)).isEqualTo(data);
        in.close();
        out.close();
    }

    @Test
    void blockingAdaptersRefuseTheEventLoop() throws Exception {
        ReliableSession out = nodes.get("a").openSession(9, "f", 9, m -> {});
        CompletableFuture<Throwable> onLoop = new CompletableFuture<>();
        nodes.get("a").inspect(e -> {
            try {
                out.outputStream().write(1);
                onLoop.complete(null);
            } catch (Throwable t) {
                onLoop.complete(t);
            }
            return null;
        });
        assertThat(onLoop.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> nodes.get("a").openSession(9, "f", 9, m -> {}))
                .isInstanceOf(IllegalArgumentException.class);
        out.close();
        assertThat(out.send(new byte[1])).isEqualTo(SendResult.CLOSED);
    }
}
