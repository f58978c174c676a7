"use client";

import * as React from "react";
import { toast } from "sonner";

/** Where playback stands, from the element's own events (seconds; duration null until the metadata is in). */
export type AudioPosition = { currentTime: number; duration: number | null };

const START: AudioPosition = { currentTime: 0, duration: null };

/** "m:ss" for a player's time display; a missing or endless duration reads "--:--". */
export function formatAudioTime(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return "--:--";
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function durationOf(audio: HTMLAudioElement): number | null {
  return Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : null;
}

/**
 * One <audio> element per screen: `play(url)` starts it, `playingUrl` says what is playing, and
 * playback ending or failing ends the playing state (core §4). A failure shows the spec's toast.
 * `position` follows the element (timeupdate, loadedmetadata, durationchange), so a progress bar
 * drawn from it moves with the sound actually playing.
 */
export function useAudioPlayer() {
  const audioRef = React.useRef<HTMLAudioElement | null>(null);
  const [playingUrl, setPlayingUrl] = React.useState<string | null>(null);
  const [loadedUrl, setLoadedUrl] = React.useState<string | null>(null);
  const [position, setPosition] = React.useState<AudioPosition>(START);

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
        if (audio.getAttribute("src") !== url) {
          audio.src = url;
          setPosition(START);
        }
        audio.currentTime = 0;
        setLoadedUrl(url);
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

  const follow = React.useCallback((event: React.SyntheticEvent<HTMLAudioElement>) => {
    const audio = event.currentTarget;
    setPosition({ currentTime: audio.currentTime, duration: durationOf(audio) });
  }, []);

  const audioProps = {
    ref: audioRef,
    onEnded: (event: React.SyntheticEvent<HTMLAudioElement>) => {
      follow(event);
      setPlayingUrl(null);
    },
    onError: () => {
      // Only a failure while something is meant to play (not an emptied src) is reported.
      if (audioRef.current?.getAttribute("src")) fail();
    },
    onTimeUpdate: follow,
    onLoadedMetadata: follow,
    onDurationChange: follow,
    preload: "none" as const,
  };

  return { play, stop, playingUrl, isPlaying: playingUrl !== null, loadedUrl, position, audioProps };
}
