import { defineModel, type BaseRow } from "fw-a";

export interface NoteRow extends BaseRow {
  id: number;
  title: string;
  done: boolean;
}

export const Note = defineModel<NoteRow>("notes");
