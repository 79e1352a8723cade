package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.HeldLoop;
import org.junit.jupiter.api.Test;

/**
 * Best-effort group sends from an application faster than its node are back-pressured, as the node's
 * unicast sends are, instead of piling up on the node's thread without bound; refused senders hear
 * when they may send again.
 */
class SendBoundTest {
    @Test
    void refusesBeyondTheBoundAndWakesOnceHalfIsSent() {
        SendBound bound = new SendBound(4);
        for (int i = 0; i < 4; i++) {
            assertThat(bound.take()).isTrue();
        }
        assertThat(bound.writable()).isFalse();
        assertThat(bound.take()).isFalse();
        assertThat(bound.queued()).isEqualTo(4);
        assertThat(bound.sent()).as("3 left: not yet half").isFalse();
        assertThat(bound.sent()).as("2 left: half, and a sender was refused").isTrue();
        assertThat(bound.sent()).as("woken once per refusal").isFalse();
        assertThat(bound.writable()).isTrue();
        bound.giveBack();
        assertThat(bound.queued()).isZero();
    }

    @Test
    @SuppressWarnings("try") // the held loop is only closed
    void aRunningNodesGroupSenderIsBlockedWhileItsNodeIsBusyAndWokenAfter() throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(1)) {
            OverlayNode node = OverlayNode.start(NodeConfig.builder("bound").loopback(0).sendQueueLimit(64)
                    .module(new MulticastModule()).build(), runtime);
            try {
                Multicast multicast = node.module(Multicast.class);
                GroupSender sender = multicast.sender("news", 1);
                AtomicInteger woken = new AtomicInteger();
                sender.onWritable(woken::incrementAndGet);
                int accepted = 0;
                SendResult last = null;
                try (HeldLoop held = HeldLoop.hold(node)) {
                    for (int i = 0; i < 1000; i++) {
                        last = sender.send(new byte[100]);
                        if (last.status() != SendResult.Status.ACCEPTED) {
                            break;
                        }
                        accepted++;
                    }
                    assertThat(accepted).isEqualTo(64);
                    assertThat(last.status()).isEqualTo(SendResult.Status.BLOCKED);
                    assertThat(sender.writable()).isFalse();
                    assertThat(multicast.send("news", 1, new byte[100]).status())
                            .isEqualTo(SendResult.Status.BLOCKED);
                }
                Eventually.await("the refused sender is woken", () -> woken.get() == 1);
                Eventually.await("writable again", sender::writable);
                assertThat(sender.send(new byte[100]).status()).isEqualTo(SendResult.Status.ACCEPTED);
            } finally {
                node.close();
            }
        }
    }
}
