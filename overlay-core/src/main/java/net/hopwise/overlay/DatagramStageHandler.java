package net.hopwise.overlay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import net.hopwise.overlay.node.NodeStack;

/**
 * A module's datagram stage as a handler of the node's pipeline, for what arrives: the datagram it
 * passes on goes to the next handler, one it drops goes no further. What leaves passes the same stage
 * as the node writes it, before datagrams are grouped for the socket.
 */
final class DatagramStageHandler extends ChannelInboundHandlerAdapter {
    private final NodeStack stack;
    private final int index;

    DatagramStageHandler(NodeStack stack, int index) {
        this.stack = stack;
        this.index = index;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf out;
        try {
            out = stack.openDatagram(index, packet.sender(), packet.content(), System.nanoTime());
        } catch (RuntimeException e) {
            packet.release();
            throw e;
        }
        if (out == packet.content()) {
            ctx.fireChannelRead(packet);
            return;
        }
        try {
            if (out != null) {
                ctx.fireChannelRead(new DatagramPacket(out, packet.recipient(), packet.sender()));
            }
        } finally {
            packet.release();
        }
    }
}
