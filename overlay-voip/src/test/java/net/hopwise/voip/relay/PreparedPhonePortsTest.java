package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.TransportKind;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * The next call's phone sockets are opened ahead of its INVITE: taking the prepared pair opens no
 * socket, and a pair prepared but never taken is closed with the relay.
 */
class PreparedPhonePortsTest {
    @Test
    void thePreparedPairIsTakenWithoutOpeningASocketAndClosedWithTheRelay() throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(1, TransportKind.AUTO);
                OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime)) {
            InetAddress local = InetAddress.getByName("127.0.0.1");
            NodeLoop loop = NodeLoop.of(node);
            RelayMedia media = new RelayMedia(node, loop, local);
            int first = LoopbackPorts.freeBlock(local, 4);
            int second = first + 2;

            loop.loop().submit(() -> media.preparePhonePorts(first)).get();
            Eventually.await("the pair opened ahead", () -> onLoop(loop, media::spareRtpPort) == first);
            assertThat(bindable(local, first)).as("the prepared RTP port is held").isFalse();
            assertThat(bindable(local, first + 1)).as("and its RTCP port").isFalse();

            // The INVITE takes the pair as it is: the spare is gone and the call holds both sockets.
            boolean taken = onLoop(loop, () -> media.bindPhonePorts(first));
            assertThat(taken).isTrue();
            assertThat(onLoop(loop, media::spareRtpPort)).isEqualTo(-1);
            assertThat(onLoop(loop, media::socketCount)).isEqualTo(2);

            // A pair prepared for a call that never comes is closed when the relay closes.
            loop.loop().submit(() -> media.preparePhonePorts(second)).get();
            Eventually.await("the next pair opened ahead", () -> onLoop(loop, media::spareRtpPort) == second);
            loop.loop().submit(media::close).get();
            assertThat(onLoop(loop, media::socketCount)).isZero();
            assertThat(bindable(local, second)).isTrue();
            assertThat(bindable(local, second + 1)).isTrue();
            assertThat(bindable(local, first)).isTrue();
        }
    }

    private static <T> T onLoop(NodeLoop loop, java.util.concurrent.Callable<T> query) {
        try {
            return loop.loop().submit(query).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private static boolean bindable(InetAddress local, int port) {
        return LoopbackPorts.allFree(local, port, 1);
    }
}
