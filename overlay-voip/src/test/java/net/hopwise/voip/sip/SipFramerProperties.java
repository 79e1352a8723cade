package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.testing.LeakDetection;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;

/** Any cutting of a stream of messages and keep-alives into reads gives back the same messages and pings. */
class SipFramerProperties {
    private static final String[] MESSAGES = {SipSamples.invite(), SipSamples.ok(), SipSamples.register()};

    @Property(tries = 500)
    void framingDoesNotDependOnHowTheStreamIsCut(@ForAll long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        List<String> sent = new ArrayList<>();
        int pings = 0;
        for (int i = random.nextInt(8); i >= 0; i--) {
            if (random.nextInt(4) == 0) {
                stream.writeBytes("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                pings++;
            }
            String message = MESSAGES[random.nextInt(MESSAGES.length)];
            stream.writeBytes(message.getBytes(StandardCharsets.UTF_8));
            sent.add(message);
        }
        byte[] bytes = stream.toByteArray();
        SipFramerTest.Recorder sink = new SipFramerTest.Recorder();
        SipFramer framer = new SipFramer(new SipParser(), PooledByteBufAllocator.DEFAULT);
        int at = 0;
        while (at < bytes.length) {
            int size = Math.min(bytes.length - at, 1 + random.nextInt(random.nextBoolean() ? 16 : 2048));
            ByteBuf chunk = PooledByteBufAllocator.DEFAULT.directBuffer(size).writeBytes(bytes, at, size);
            framer.read(chunk, sink);
            at += size;
        }
        framer.close();
        assertThat(sink.texts).isEqualTo(sent);
        assertThat(sink.pings).isEqualTo(pings);
        assertThat(sink.errors).isEmpty();
    }

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }
}
