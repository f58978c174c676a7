"use client";

import * as React from "react";
import { toast } from "sonner";

/**
 * One <audio> element per screen: `play(url)` starts it, `playingUrl` says what is playing, and
 * playback ending or failing ends the playing state (core §4). A failure shows the spec's toast.
 */
export function useAudioPlayer() {
  const audioRef = React.useRef<HTMLAudioElement | null>(null);
  const [playingUrl, setPlayingUrl] = React.useState<string | null>(null);

  const fail = React.useCallback(() => {
    setPlayingUrl(null);
    // One toast even when both play() and the element's error event report the same failure.
    toast.error("Audio Playback Failed", { id: "audio-playback-failed", description: "Could not play the generated audio" });
  }, []);

  const play = React.useCallback(
    async (url: string) => {
      const audio = audioRef.current;
      if (!audio) return;
      try {
        audio.pause();
        if (audio.getAttribute("src") !== url) audio.src = url;
        audio.currentTime = 0;
        setPlayingUrl(url);
        await audio.play();
      } catch (error) {
        // A newer play() interrupting this one is not a failure.
        if ((error as DOMException)?.name === "AbortError") return;
        fail();
      }
    },
    [fail],
  );

  const stop = React.useCallback(() => {
    audioRef.current?.pause();
    setPlayingUrl(null);
  }, []);

  const audioProps = {
    ref: audioRef,
    onEnded: () => setPlayingUrl(null),
    onError: () => {
      // Only a failure while something is meant to play (not an emptied src) is reported.
      if (audioRef.current?.getAttribute("src")) fail();
    },
    preload: "none" as const,
  };

  return { play, stop, playingUrl, isPlaying: playingUrl !== null, audioProps };
}
