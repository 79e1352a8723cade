package net.hopwise.overlay.impair;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One pass over a real event loop (in-JVM local transport), to prove the handler's clock and the
 * loop's scheduler agree outside {@code EmbeddedChannel}. The delay is a millisecond and nothing is
 * timed: the test only waits, with a generous bound, for what must happen.
 */
class ImpairmentHandlerOnEventLoopTest {
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.9", 9000);
    private static final InetSocketAddress LOST = new InetSocketAddress("127.0.0.10", 9000);
    // Pooled, because Netty's leak detector does not track unpooled heap buffers.
    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    @Test
    void delayedWritesLeaveAndDroppedOnesSucceedOnARealLoop() throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
        BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        ImpairmentHandler handler = new ImpairmentHandler(1);
        handler.set(PEER, Direction.OUTBOUND, ImpairmentConfig.builder().delay(Duration.ofMillis(1)).build());
        handler.set(LOST, Direction.OUTBOUND, ImpairmentConfig.builder().bernoulliLoss(1).build());
        LocalAddress address = new LocalAddress("impairment-" + System.nanoTime());
        Channel server = null;
        Channel client = null;
        try {
            server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                    .childHandler(new ChannelInitializer<LocalChannel>() {
                        @Override
                        protected void initChannel(LocalChannel ch) {
                            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    received.add(msg);
                                }
                            });
                        }
                    })
                    .bind(address).sync().channel();
            client = new Bootstrap().group(group).channel(LocalChannel.class).handler(handler)
                    .connect(address).sync().channel();

            DatagramPacket lost = new DatagramPacket(ALLOC.buffer(4).writeInt(1), LOST);
            ChannelFuture dropped = client.writeAndFlush(lost);
            ChannelFuture delayed = client.writeAndFlush(new DatagramPacket(ALLOC.buffer(4).writeInt(2), PEER));

            assertThat(dropped.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(dropped.isSuccess()).isTrue();
            assertThat(lost.refCnt()).isZero();
            assertThat(delayed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(delayed.isSuccess()).isTrue();
            Object got = received.poll(5, TimeUnit.SECONDS);
            assertThat(got).isInstanceOf(DatagramPacket.class);
            DatagramPacket packet = (DatagramPacket) got;
            assertThat(packet.content().getInt(0)).isEqualTo(2);
            packet.release();
            assertThat(handler.dropped()).isEqualTo(1);
        } finally {
            if (client != null) {
                client.close().sync();
            }
            if (server != null) {
                server.close().sync();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            Object stray;
            while ((stray = received.poll()) != null) {
                ReferenceCountUtil.release(stray);
            }
        }
    }
}
