package org.edgelab.link.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QdiscCountersTest {
    @Test
    void readsSentBytesPacketsAndDropsOfTc() {
        String tc = """
                qdisc tbf 801b: root refcnt 3 rate 200Mbit burst 128Kb lat 14.8ms\s
                 Sent 66027447 bytes 1116 pkt (dropped 382, overlimits 2009 requeues 0)\s
                 backlog 131098b 1p requeues 0
                """;
        assertThat(QdiscCounters.parse(tc)).isEqualTo(new QdiscCounters(66027447, 1116, 382));
    }

    @Test
    void outputWithoutCountersIsAnError() {
        assertThatThrownBy(() -> QdiscCounters.parse("Cannot find device \"el0\"")).hasMessageContaining("Cannot find device");
    }
}
