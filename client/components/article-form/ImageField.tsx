// The featured image: pick a file (type and 5 MB checks), see it converted to black and white in
// a canvas, reset to the original, or remove it. The parent receives the file to send, if any.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { ARTICLE_IMAGE_MAX_BYTES } from '../../../shared/articles.ts';
import { checkImageFile } from '../../validation.ts';
import { FilePicker } from '../FilePicker.tsx';
import { drawGrayscale, jpegName } from './grayscale.ts';

/** What the form sends: a new file, removal of the current image, or nothing (keep it). */
export interface ImageChoice {
  file: File | null;
  removeCurrent: boolean;
}

type Mode = 'none' | 'converting' | 'bw' | 'original' | 'failed';

export function ImageField({ id, currentUrl = null, onChange }: {
  id: string;
  /** The article's image when editing. */
  currentUrl?: string | null;
  onChange: (choice: ImageChoice) => void;
}) {
  const [original, setOriginal] = useState<File | null>(null);
  const [originalUrl, setOriginalUrl] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('none');
  const [error, setError] = useState<string>();
  const [current, setCurrent] = useState(currentUrl);
  const canvas = useRef<HTMLCanvasElement>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => () => { if (originalUrl) URL.revokeObjectURL(originalUrl); }, [originalUrl]);
  const hasNew = original !== null;

  async function convert(file: File) {
    setMode('converting');
    try {
      if (!canvas.current) throw new Error('No canvas');
      const jpeg = await drawGrayscale(file, canvas.current);
      onChange({ file: new File([jpeg], jpegName(file.name), { type: 'image/jpeg' }), removeCurrent: false });
      setMode('bw');
      toast.success('Image converted to black and white');
    } catch {
      onChange({ file, removeCurrent: false });
      setMode('failed');
      toast.error('B&W conversion failed, will use automatic filter');
    }
  }

  function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // picking the same file again still fires a change
    if (!file) return;
    const problem = checkImageFile(file, ARTICLE_IMAGE_MAX_BYTES);
    setError(problem);
    if (problem) return;
    setOriginal(file);
    setOriginalUrl(URL.createObjectURL(file));
    void convert(file);
  }

  function resetToOriginal() {
    if (!original) return;
    onChange({ file: original, removeCurrent: false });
    setMode('original');
  }

  function remove() {
    setOriginal(null);
    setOriginalUrl(null);
    setMode('none');
    setError(undefined);
    if (current) setCurrent(null);
    onChange({ file: null, removeCurrent: Boolean(currentUrl) });
    input.current?.focus();
  }

  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <div className="field__top">
        <label className="field__label" htmlFor={id}>Featured image (optional)</label>
        <span className="counter" id={`${id}-hint`}>JPEG, PNG, WebP or GIF · at most 5MB</span>
      </div>
      <FilePicker id={id} inputRef={input} onChange={pick} invalid={Boolean(error)}
        buttonLabel={hasNew || current ? 'Choose another picture' : 'Choose a picture'}
        describedBy={[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')} />
      {error ? <p className="field__error" id={`${id}-error`} role="alert">{error}</p> : null}

      <div className="image-field__preview" hidden={!hasNew && !current}>
        <canvas ref={canvas} className="image-field__canvas" data-testid="bw-preview"
          role="img" aria-label="Black and white preview of the featured image"
          hidden={!hasNew || (mode !== 'bw' && mode !== 'converting')} />
        {hasNew && (mode === 'original' || mode === 'failed') && originalUrl ? (
          <img className={mode === 'original' ? 'image-field__img image-field__img--original' : 'image-field__img'}
            src={originalUrl} alt={mode === 'original' ? 'Original featured image' : 'Featured image'} />
        ) : null}
        {!hasNew && current ? <img className="image-field__img" src={current} alt="Current featured image" /> : null}
        <p className="image-field__status" aria-live="polite">
          {mode === 'converting' ? 'Converting to black and white…' : null}
          {mode === 'bw' ? 'Black and white preview: this is the picture that will be published.' : null}
          {mode === 'original' ? 'Original picture: it will be turned to black and white when published.' : null}
          {mode === 'failed' ? 'The original picture will be used, with an automatic black and white filter.' : null}
        </p>
        <div className="image-field__actions">
          {hasNew && mode === 'bw' ? (
            <button type="button" className="button button--small" onClick={resetToOriginal}>Reset to original</button>
          ) : null}
          {hasNew && mode === 'original' ? (
            <button type="button" className="button button--small" onClick={() => void convert(original)}>
              Convert to black and white
            </button>
          ) : null}
          <button type="button" className="button button--small button--quiet" onClick={remove}>Remove image</button>
        </div>
      </div>
    </div>
  );
}
