package net.hopwise.overlay;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;

/**
 * One stage of a node as a handler of its channel pipeline: a thin adapter that hands each frame to
 * the stage and what the stage passes on to the next handler whose stage takes that type of frame
 * (see {@link net.hopwise.overlay.spi.Stage#takes}): a frame crosses only the stages that want it, as
 * in the simulator. Inbound only: what stages send goes out through the channel from the node's
 * output, past the handlers next to the socket.
 */
final class StageHandler extends ChannelInboundHandlerAdapter {
    private final NodeStack stack;
    private final int index;
    private final FrameSink next;

    StageHandler(NodeStack stack, int index, Contexts contexts) {
        this.stack = stack;
        this.index = index;
        this.next = frame -> contexts.passTo(stack.nextStage(index + 1, frame.type()), frame);
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

    /** The pipeline contexts of a node's stages (the frame stage's first), filled once all are added. */
    static final class Contexts {
        private ChannelHandlerContext[] byStage = new ChannelHandlerContext[0];

        void fill(io.netty.channel.ChannelPipeline pipeline, java.util.List<String> stageNames, String frameHandler) {
            ChannelHandlerContext[] contexts = new ChannelHandlerContext[stageNames.size()];
            for (int i = 0; i < contexts.length; i++) {
                contexts[i] = pipeline.context(i == 0 ? frameHandler : stageNames.get(i));
            }
            byStage = contexts;
        }

        /** Hands a frame to the handler of stage {@code stage}: fired from the context just before it. */
        void passTo(int stage, Frame frame) {
            if (stage < byStage.length) {
                byStage[stage - 1].fireChannelRead(frame);
            }
        }
    }
}
