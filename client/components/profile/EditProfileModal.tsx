// Edit profile (SPEC §2, Modals): avatar with 'Cancel image change', username x/35, biography
// x/500, Cancel and Save Changes. Only changed fields are sent; the signed-in user is updated
// locally so the header shows the change at once.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { AVATAR_MAX_BYTES, BIO_MAX, USERNAME_MAX } from '../../../shared/accounts.ts';
import { lineLength, textLength } from '../../../shared/text.ts';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { updateCurrentUser } from '../../state/session.ts';
import type { PrivateUser } from '../../types.ts';
import { checkImageFile } from '../../validation.ts';
import { Avatar } from '../Avatar.tsx';
import { FilePicker } from '../FilePicker.tsx';
import { InputField, TextAreaField } from '../Field.tsx';
import { FormActions, Modal } from '../Modal.tsx';
import { profileChanges, type ProfileErrors } from './profileRules.ts';

export function EditProfileModal({ user, onClose }: { user: PrivateUser; onClose: () => void }) {
  const [username, setUsername] = useState(user.username);
  const [bio, setBio] = useState(user.bio ?? '');
  const [avatar, setAvatar] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<ProfileErrors & { avatar?: string }>({});
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);

  function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkImageFile(file, AVATAR_MAX_BYTES);
    setErrors((e) => ({ ...e, avatar: problem, form: undefined }));
    if (problem) return;
    setAvatar(file);
    setPreview(URL.createObjectURL(file));
  }

  function cancelImage() {
    setAvatar(null);
    setPreview(null);
    setErrors((e) => ({ ...e, avatar: undefined }));
    fileInput.current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { changes, errors: found } = profileChanges({ username: user.username, bio: user.bio ?? '' }, { username, bio }, avatar !== null);
    setErrors(found);
    if (found.username || found.bio || found.form) {
      document.getElementById(found.username ? 'profile-username' : found.bio ? 'profile-bio' : 'profile-username')?.focus();
      return;
    }
    setBusy(true);
    try {
      const updated = await api.users.updateMe({ ...changes, avatar: avatar ?? undefined });
      updateCurrentUser(updated);
      toastSuccess('Profile updated successfully!', 'Error updating profile');
      onClose();
    } catch (error) {
      toastApiError(error, 'Error updating profile');
      setBusy(false);
    }
  }

  const usernameLength = lineLength(username);
  const bioLength = textLength(bio);
  return (
    <Modal title="Edit profile" onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate aria-label="Edit profile">
        <div className={errors.avatar ? 'field field--invalid' : 'field'}>
          <span className="field__label">Profile picture</span>
          <div className="avatar-edit">
            {preview
              ? <img className="avatar avatar-edit__preview" src={preview} alt="New profile picture" width={72} height={72} />
              : <Avatar username={user.username} avatar={user.avatar} size={72} />}
            <div className="avatar-edit__controls">
              <FilePicker id="profile-avatar" inputRef={fileInput} onChange={pick} invalid={Boolean(errors.avatar)}
                buttonLabel={user.avatar || preview ? 'Change picture' : 'Upload picture'}
                describedBy={errors.avatar ? 'profile-avatar-error' : 'profile-avatar-hint'} />
              {avatar ? (
                <button type="button" className="button button--small button--quiet" onClick={cancelImage}>Cancel image change</button>
              ) : null}
              <span className="counter" id="profile-avatar-hint">At most 2MB</span>
            </div>
          </div>
          {errors.avatar ? <p className="field__error" id="profile-avatar-error" role="alert">{errors.avatar}</p> : null}
        </div>
        <InputField id="profile-username" label="Username" value={username} autoComplete="username"
          error={errors.username} hintId="profile-username-count"
          onChange={(e) => { setUsername(e.target.value); setErrors((x) => ({ ...x, username: undefined, form: undefined })); }}
          hint={<span id="profile-username-count" className={usernameLength > USERNAME_MAX ? 'counter counter--over' : 'counter'}>{usernameLength}/{USERNAME_MAX}</span>} />
        <p className="form__notice">Username changes apply immediately to all your posts and comments.</p>
        <TextAreaField id="profile-bio" label="Biography" rows={5} value={bio} error={errors.bio} hintId="profile-bio-count"
          onChange={(e) => { setBio(e.target.value); setErrors((x) => ({ ...x, bio: undefined, form: undefined })); }}
          hint={<span id="profile-bio-count" className={bioLength > BIO_MAX ? 'counter counter--over' : 'counter'}>{bioLength}/{BIO_MAX}</span>} />
        {errors.form ? <p className="field__error" role="alert">{errors.form}</p> : null}
        <FormActions label="Save Changes" busyLabel="Saving…" busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
