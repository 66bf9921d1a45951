/** The {@code video-streams} experiment kind: report C's stream-count search on every server build. */
package org.edgelab.experiments.video;
