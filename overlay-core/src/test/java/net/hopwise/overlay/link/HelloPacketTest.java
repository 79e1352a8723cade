package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HelloPacketTest {
    @Test
    void fieldsOutsideTheirWireRangeAreRefused() {
        assertThatThrownBy(() -> new HelloPacket(0, 0, 0, 0, 0, 0, "a")).hasMessageContaining("seq");
        assertThatThrownBy(() -> new HelloPacket(HelloPacket.MAX_SEQ + 1, 0, 0, 0, 0, 0, "a"))
                .hasMessageContaining("seq");
        assertThatThrownBy(() -> new HelloPacket(1, 0, -1, 0, 0, 0, "a")).hasMessageContaining("echoSeq");
        assertThatThrownBy(() -> new HelloPacket(1, 0, 0, 0, 0, HelloPacket.PPM + 1, "a"))
                .hasMessageContaining("lossPpm");
        assertThatThrownBy(() -> new HelloPacket(1, 0, 0, 0, 0, -1, "a")).hasMessageContaining("lossPpm");
        assertThatThrownBy(() -> new HelloPacket(1, 0, 0, 0, 0, 0, "x".repeat(65)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HelloPacket(1, 0, 0, 0, 0, 0, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theSevenFieldFormHasAnUnknownIncarnation() {
        assertThat(new HelloPacket(1, 2, 3, 4, 5, 6, "a").incarnation()).isZero();
    }

    @Test
    void lossRatesRoundToPartsPerMillionWithinRange() {
        assertThat(HelloPacket.toPpm(0)).isZero();
        assertThat(HelloPacket.toPpm(-0.5)).isZero();
        assertThat(HelloPacket.toPpm(Double.NaN)).isZero();
        assertThat(HelloPacket.toPpm(0.0500004)).isEqualTo(50_000);
        assertThat(HelloPacket.toPpm(1)).isEqualTo(HelloPacket.PPM);
        assertThat(HelloPacket.toPpm(7)).isEqualTo(HelloPacket.PPM);
    }
}
