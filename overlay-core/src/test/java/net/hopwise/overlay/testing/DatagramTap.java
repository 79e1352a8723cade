package net.hopwise.overlay.testing;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.DatagramStage;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;

/**
 * A module whose datagram stage shows the test each datagram it passes and adds no bytes. Installed
 * first among a node's modules it sits next to the socket, outside link security, so that it sees
 * what goes on the wire; a later one sees what link security seals and opens.
 */
public final class DatagramTap implements OverlayModule {
    /** What the tap does with a datagram on its way in: the datagram, or another in its place (it then owns the first). */
    public interface Inbound {
        ByteBuf inbound(InetSocketAddress from, ByteBuf datagram);
    }

    /** What the tap does with a datagram on its way out: the datagram, or another in its place (it then owns the first). */
    public interface Outbound {
        ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram);
    }

    private final String name;
    private final Inbound in;
    private final Outbound out;

    private DatagramTap(String name, Inbound in, Outbound out) {
        this.name = name;
        this.in = in;
        this.out = out;
    }

    /** A tap on both ways. */
    public static DatagramTap of(String name, Inbound in, Outbound out) {
        return new DatagramTap(name, in, out);
    }

    /** A tap on what the node sends; what it receives passes untouched. */
    public static DatagramTap outbound(String name, Outbound out) {
        return new DatagramTap(name, (from, datagram) -> datagram, out);
    }

    /** The readable bytes of a datagram, its indices left as they were. */
    public static byte[] bytes(ByteBuf datagram) {
        byte[] copy = new byte[datagram.readableBytes()];
        datagram.getBytes(datagram.readerIndex(), copy);
        return copy;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(ModuleContext ctx) {
        ctx.addDatagramStage(name, new DatagramStage() {
            @Override
            public int overhead() {
                return 0;
            }

            @Override
            public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
                return in.inbound(from, datagram);
            }

            @Override
            public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
                return out.outbound(link, address, datagram);
            }
        });
    }
}
