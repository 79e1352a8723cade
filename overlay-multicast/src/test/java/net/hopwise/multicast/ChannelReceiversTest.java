package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import org.junit.jupiter.api.Test;

/**
 * The receiving ends of link channels owe their acknowledgements until the node takes them: one
 * refused while the node's socket was back-pressured is sent at the next flush, not lost (the sender
 * would otherwise wait for its retransmission timer).
 */
class ChannelReceiversTest {
    private static final NodeId PARENT = NodeId.ofName("parent");
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private boolean accepting;
    private int refusals;
    private final List<ChannelAck> sent = new ArrayList<>();
    private final LinkView link = (LinkView) Proxy.newProxyInstance(LinkView.class.getClassLoader(),
            new Class<?>[] {LinkView.class}, (proxy, method, args) -> switch (method.getName()) {
                case "id" -> PARENT;
                case "hashCode" -> 1;
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.getName());
            });
    private final ModuleContext context = (ModuleContext) Proxy.newProxyInstance(ModuleContext.class.getClassLoader(),
            new Class<?>[] {ModuleContext.class}, (proxy, method, args) -> switch (method.getName()) {
                case "maxBody" -> 1200;
                case "allocator" -> ALLOC;
                case "nowNanos" -> 0L;
                case "link" -> PARENT.equals(args[0]) ? link : null;
                case "send" -> {
                    ByteBuf body = (ByteBuf) args[2];
                    try {
                        if (!accepting) {
                            refusals++;
                            yield false;
                        }
                        sent.add(ChannelAck.decode(body));
                        yield true;
                    } finally {
                        body.release();
                    }
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });

    @Test
    void anAcknowledgementTheNodeRefusedIsSentAtTheNextFlush() {
        ChannelReceivers receivers = new ChannelReceivers(context, counter("malformed"), ReliablePacket.HEADER,
                ReliablePacket.ACK, counter("duplicate"), counter("window"));
        for (int seq = 0; seq < 3; seq++) {
            ByteBuf packet = packet(7, seq);
            try {
                assertThat(receivers.accept(link, packet)).isNotNull();
            } finally {
                packet.release();
            }
        }
        accepting = false;
        receivers.flush();
        assertThat(refusals).isEqualTo(1);
        assertThat(sent).isEmpty();
        assertThat(receivers.owing()).isTrue();

        accepting = true;
        receivers.flush();
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).epoch()).isEqualTo(7);
        assertThat(sent.get(0).cumulative()).as("everything received, acknowledged cumulatively").isEqualTo(3);
        assertThat(receivers.owing()).isFalse();

        receivers.flush();
        assertThat(sent).as("nothing more is owed").hasSize(1);
    }

    private static ByteBuf packet(int epoch, int sequence) {
        ByteBuf b = ALLOC.buffer();
        b.writeInt(epoch).writeInt(sequence).writeZero(ReliablePacket.HEADER + 10);
        return b;
    }

    private static DropCounter counter(String reason) {
        return new DropCounter() {
            private long count;

            @Override
            public String reason() {
                return reason;
            }

            @Override
            public void increment() {
                count++;
            }

            @Override
            public long count() {
                return count;
            }
        };
    }
}
