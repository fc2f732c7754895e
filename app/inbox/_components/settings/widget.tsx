"use client";

import { useState, type FormEvent } from "react";
import { textOn } from "@/widget/src/shared/brand";
import styles from "../../inbox.module.css";
import { useSave } from "../shared/use-save";
import { DisclosureCard } from "../ui/disclosure-card";
import { Feedback } from "../ui/feedback";
import { WidgetPreview, type PreviewConfig } from "./widget-preview";

export interface DesignedSite {
  id: string;
  name: string;
  offline: boolean;
  title: string | null;
  greeting: string | null;
  brand_color: string | null;
  locale: string | null;
  position: "right" | "left";
  launcher_label: string | null;
  team_member_ids: string[];
}

export interface FaceCandidate {
  id: string;
  name: string;
  avatar: string | null;
  shown_in_widget: boolean;
}

const DEFAULT_COLOR = "#1f56c8"; // the widget's own blue (widget/src/loader-style.ts)
const MAX_FACES = 5;
const LANGUAGES = [
  ["", "The visitor's browser language"],
  ["en", "English"],
  ["de", "Deutsch"],
  ["fr", "Français"],
  ["es", "Español"],
  ["ar", "العربية"],
] as const;
const isHex = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);

interface DesignerProps {
  site: DesignedSite;
  faces: FaceCandidate[];
  serviceOrigin: string;
}

/**
 * Settings → Widget for one site, behind "Design the widget": an open designer runs a live
 * preview (a frame of the real widget), and the page lists every site, so each opens on request;
 * the only site's opens by itself.
 */
export function WidgetDesigner({ startOpen, ...props }: DesignerProps & { startOpen: boolean }) {
  const prefix = `widget-${props.site.id}`;
  return (
    <DisclosureCard
      id={prefix}
      title={`Widget: ${props.site.name}`}
      summary={<p className={styles.hint}>Title, greeting, colour, language, position, launcher label and team faces, previewed live before saving.</p>}
      button="Design the widget"
      startOpen={startOpen}
    >
      <DesignerForm {...props} prefix={prefix} />
    </DisclosureCard>
  );
}

/** The site's look and words, previewed live, saved together. */
function DesignerForm({ site, faces, serviceOrigin, prefix }: DesignerProps & { prefix: string }) {
  const { status, save } = useSave();
  const [title, setTitle] = useState(site.title ?? "");
  const [greeting, setGreeting] = useState(site.greeting ?? "");
  const [color, setColor] = useState(site.brand_color ?? "");
  const [locale, setLocale] = useState(site.locale ?? "");
  const [position, setPosition] = useState(site.position);
  const [label, setLabel] = useState(site.launcher_label ?? "");
  const [chosen, setChosen] = useState(site.team_member_ids);

  const brand = isHex(color) ? color.toLowerCase() : null;
  const team = (chosen.length ? chosen.flatMap((id) => faces.filter((face) => face.id === id)) : faces.filter((face) => face.shown_in_widget)).slice(0, MAX_FACES);
  const config: PreviewConfig = {
    title: title.trim() || null,
    greeting: greeting.trim() || null,
    brand_color: brand,
    offline: site.offline,
    track_before_interaction: false,
    open: true,
    next_open_at: null,
    away_message: null,
    locale: locale || null,
    position,
    launcher_label: label.trim() || null,
    team: team.map(({ name, avatar }) => ({ name, avatar })),
  };
  const toggleFace = (id: string, on: boolean) => setChosen((ids) => (on ? [...ids, id] : ids.filter((other) => other !== id)));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await save(
      "PATCH",
      `/api/v1/inbox/sites/${encodeURIComponent(site.id)}`,
      {
        title: config.title,
        greeting: config.greeting,
        brand_color: color.trim() ? color.trim() : null,
        locale: config.locale,
        position,
        launcher_label: config.launcher_label,
        team_member_ids: chosen,
      },
      "Saved: visitors see it on their next page load.",
    );
  };

  const onText = brand ? textOn(brand) : textOn(DEFAULT_COLOR);
  return (
    <form id={`${prefix}-form`} onSubmit={onSubmit} aria-labelledby={`${prefix}-title`}>
      <div className={styles.designer}>
        <div>
          <div className={styles.field}>
            <label htmlFor={`${prefix}-heading`}>Title</label>
            <input className={styles.input} id={`${prefix}-heading`} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={60} placeholder="Chat with us" />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${prefix}-greeting`}>Greeting</label>
            <textarea className={styles.textarea} id={`${prefix}-greeting`} value={greeting} onChange={(e) => setGreeting(e.target.value)} maxLength={200} placeholder="Hi! How can we help?" />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${prefix}-color`}>Brand colour</label>
            <div className={styles.row}>
              <input type="color" id={`${prefix}-color-picker`} aria-label="Pick the brand colour" value={brand ?? DEFAULT_COLOR} onChange={(e) => setColor(e.target.value)} />
              <input
                className={styles.input}
                id={`${prefix}-color`}
                value={color}
                onChange={(e) => setColor(e.target.value)}
                placeholder={DEFAULT_COLOR}
                pattern="#[0-9a-fA-F]{6}"
                aria-describedby={`${prefix}-contrast`}
              />
            </div>
            <p className={styles.hint} id={`${prefix}-contrast`}>
              <span className={styles.swatch} style={{ background: brand ?? DEFAULT_COLOR, color: onText }}>
                Aa
              </span>{" "}
              Text on it is {onText === "#fff" ? "white" : "near-black"}, whichever reads better. Empty: the widget&apos;s blue.
            </p>
          </div>
          <div className={styles.field}>
            <label htmlFor={`${prefix}-locale`}>Language</label>
            <select className={styles.select} id={`${prefix}-locale`} value={locale} onChange={(e) => setLocale(e.target.value)}>
              {LANGUAGES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <fieldset className={styles.field}>
            <legend className={styles.label}>Position</legend>
            {(["right", "left"] as const).map((side) => (
              <label key={side}>
                <input type="radio" name={`${prefix}-position`} value={side} checked={position === side} onChange={() => setPosition(side)} /> Bottom {side}
              </label>
            ))}
          </fieldset>
          <div className={styles.field}>
            <label htmlFor={`${prefix}-label`}>Launcher label</label>
            <input className={styles.input} id={`${prefix}-label`} value={label} onChange={(e) => setLabel(e.target.value)} maxLength={40} aria-describedby={`${prefix}-label-hint`} />
            <p className={styles.hint} id={`${prefix}-label-hint`}>
              Words beside the chat icon; empty shows the icon alone.
            </p>
          </div>
          <fieldset className={styles.field} aria-describedby={`${prefix}-faces-hint`}>
            <legend className={styles.label}>Team faces</legend>
            <p className={styles.hint} id={`${prefix}-faces-hint`}>
              Up to {MAX_FACES}, in the order chosen. None chosen: the members marked “shown in the widget”.
            </p>
            {faces.map((face) => {
              const on = chosen.includes(face.id);
              return (
                <label key={face.id}>
                  <input type="checkbox" checked={on} disabled={!on && chosen.length >= MAX_FACES} onChange={(e) => toggleFace(face.id, e.target.checked)} /> {face.name}
                </label>
              );
            })}
          </fieldset>
          <button className={styles.button} type="submit">
            Save widget
          </button>
          <Feedback status={status} />
        </div>
        <WidgetPreview config={config} site={site.id} serviceOrigin={serviceOrigin} />
      </div>
    </form>
  );
}
