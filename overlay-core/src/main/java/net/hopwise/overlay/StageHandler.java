package net.hopwise.overlay;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;

/**
 * One stage of a node as a handler of its channel pipeline: a thin adapter that hands each frame to
 * the stage and what the stage passes on to the next handler. Inbound only: what stages send goes
 * out through the channel from the node's output, past the handlers next to the socket.
 */
final class StageHandler extends ChannelInboundHandlerAdapter {
    private final NodeStack stack;
    private final int index;
    private FrameSink next;

    StageHandler(NodeStack stack, int index) {
        this.stack = stack;
        this.index = index;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        next = ctx::fireChannelRead;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Frame frame) {
            stack.runStage(index, frame, next);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public String toString() {
        return "StageHandler[" + stack.stageNames().get(index) + "]";
    }
}
