/**
 * Video playback load: streams that prefetch frames ahead of a play head, and the search for the highest healthy stream count.
 */
package org.edgelab.loadgen.video;
